// The default task pool of CollisionWorld: workers sleep on a condition variable between jobs and
// take task indices from one atomic counter during a job, the calling thread too.
#include "thread_pool.hpp"

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

void ThreadPool::take_tasks() {
  for (int i = next_.fetch_add(1, std::memory_order_relaxed); i < count_; i = next_.fetch_add(1, std::memory_order_relaxed)) {
    task_(i, context_);
  }
}

void ThreadPool::run(int count, void (*task)(int, void*), void* context) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = task;
    context_ = context;
    count_ = count;
    next_.store(0, std::memory_order_relaxed);
    busy_ = int(workers_.size());
    ++job_;
  }
  wake_.notify_all();
  take_tasks();
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [this] { return busy_ == 0; });
}

void ThreadPool::work() {
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || job_ != seen; });
      if (stop_) return;
      seen = job_;
    }
    take_tasks();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      --busy_;
    }
    done_.notify_one();
  }
}

}  // namespace pebble::detail
