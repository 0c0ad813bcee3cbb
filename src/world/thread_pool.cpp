// The default task pool of CollisionWorld: workers sleep on a condition variable between jobs and
// claim task indices from one atomic cursor during a job, the calling thread too; the caller waits
// only for the tasks, never for the workers (C++20 atomic wait on the count of finished tasks).
#include "world/thread_pool.hpp"

#ifndef PEBBLE_NO_THREADS

namespace pebble::detail {

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::take_tasks(std::uint32_t job, void (*task)(int, void*), void* context, int count) {
  for (;;) {
    std::uint64_t cursor = cursor_.load(std::memory_order_relaxed);
    do {
      if (std::uint32_t(cursor >> 32) != job || int(std::uint32_t(cursor)) >= count) return;
    } while (!cursor_.compare_exchange_weak(cursor, cursor + 1, std::memory_order_relaxed));
    task(int(std::uint32_t(cursor)), context);
    // Release: the task's writes are seen by the caller once it sees the count.
    if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == count) done_.notify_all();
  }
}

void ThreadPool::run(int count, void (*task)(int, void*), void* context) {
  std::uint32_t job;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = task;
    context_ = context;
    count_ = count;
    job = ++job_;
    done_.store(0, std::memory_order_relaxed);
    cursor_.store(std::uint64_t(job) << 32, std::memory_order_relaxed);
  }
  wake_.notify_all();
  take_tasks(job, task, context, count);
  for (int done = done_.load(std::memory_order_acquire); done != count; done = done_.load(std::memory_order_acquire)) {
    done_.wait(done, std::memory_order_acquire);
  }
}

namespace {
// One short wait of a spinning thread (a hint to the core; nothing on other processors).
inline void spin_pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}
// How long a worker watches for the next job before it sleeps: update() posts its jobs a few
// microseconds apart, and waking a sleeping thread costs tens of microseconds.
constexpr int kSpins = 1024;
// How long a worker woken by alert() watches for the job that follows (a few hundred microseconds):
// the caller's serial work between alert() and run() is about that long.
constexpr int kAlertSpins = 8192;
}  // namespace

void ThreadPool::alert() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++alert_;
  }
  wake_.notify_all();
}

void ThreadPool::work() {
  std::uint32_t seen = 0, alerted = 0;
  int spins = kSpins;
  for (;;) {
    for (int i = 0; i < spins && std::uint32_t(cursor_.load(std::memory_order_relaxed) >> 32) == seen; ++i)
      spin_pause();
    spins = kSpins;
    void (*task)(int, void*);
    void* context;
    int count;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || job_ != seen || alert_ != alerted; });
      if (stop_) return;
      if (job_ == seen) {  // alerted: a job is coming, watch for it awake
        alerted = alert_;
        spins = kAlertSpins;
        continue;
      }
      alerted = alert_;
      seen = job_;
      task = task_;
      context = context_;
      count = count_;
    }
    take_tasks(seen, task, context, count);
  }
}

}  // namespace pebble::detail
#endif
