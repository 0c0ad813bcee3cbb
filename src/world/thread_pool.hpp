// Internal: the small pool of std::threads CollisionWorld uses when the user gives no task hook
// (WorldSettings::threads > 1). Not installed; not part of the API.
#pragma once

#ifndef PEBBLE_NO_THREADS
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>
#endif

namespace pebble::detail {

#ifdef PEBBLE_NO_THREADS
/// A build without threads (CMake option PEBBLE_THREADS=OFF, e.g. for WebAssembly): the world
/// makes no pool, and its parallel work runs on the calling thread or the user's task hook.
class ThreadPool {
public:
  explicit ThreadPool(int) {}
  void run(int count, void (*task)(int, void*), void* context) {
    for (int i = 0; i < count; ++i) task(i, context);
  }
  void alert() {}
};
#else
/// threads - 1 workers that, with the calling thread, run the tasks of one run() at a time.
class ThreadPool {
public:
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// Runs task(i, context) for every i in [0, count) on the workers and the calling thread; returns
  /// when all have finished. Tasks are handed out one index at a time, so uneven tasks balance, and
  /// the caller never waits for a worker that has not started: on a machine with no free core it
  /// simply runs every task itself.
  void run(int count, void (*task)(int, void*), void* context);
  /// Wakes sleeping workers to watch for a job about to come (their wake-up then overlaps the
  /// caller's serial work instead of delaying the job).
  void alert();

private:
  void work();
  void take_tasks(std::uint32_t job, void (*task)(int, void*), void* context, int count);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;  // a new job, or stop
  std::uint32_t job_ = 0;         // serial number of the current job (guarded by mutex_)
  std::uint32_t alert_ = 0;       // serial number of the last alert() (guarded by mutex_)
  bool stop_ = false;
  void (*task_)(int, void*) = nullptr;
  void* context_ = nullptr;
  int count_ = 0;
  // The job's serial number (high 32 bits) and its next task index (low 32 bits): a worker can only
  // claim a task of the job it read, so a late worker never runs a task of the next job.
  std::atomic<std::uint64_t> cursor_{0};
  std::atomic<int> done_{0};  // tasks of the current job finished
};
#endif

}  // namespace pebble::detail
