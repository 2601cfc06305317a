#pragma once
#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace alignscope::cli {

// Runs job(i) for i = 0 .. count-1 on threads of its own, at most `ahead` items past the one the
// caller takes next, and hands the results back in order. Export decodes its lines on these
// threads while the calling thread draws them (Qt's widgets draw on one thread only).
// Threading: take() and stop() from one thread.
template <typename T>
class OrderedWorkers {
public:
    OrderedWorkers(size_t count, int threads, size_t ahead, std::function<T(size_t)> job)
        : job_(std::move(job)), slots_(count), ahead_(std::max<size_t>(1, ahead)) {
        try {
            for (int t = 0; t < std::max(1, threads); ++t) threads_.emplace_back([this] { work(); });
        } catch (...) {  // a thread that cannot start: the started ones do the work
            if (threads_.empty()) throw;
        }
    }
    ~OrderedWorkers() { stop(); }
    OrderedWorkers(const OrderedWorkers&) = delete;
    OrderedWorkers& operator=(const OrderedWorkers&) = delete;

    // Item i's result, waiting for it; rethrows what its job threw. i = 0, 1, ... in turn.
    T take(size_t i) {
        std::unique_lock<std::mutex> lock(mutex_);
        taken_ = i;
        changed_.notify_all();
        changed_.wait(lock, [&] { return slots_[i].done; });
        Slot slot = std::move(slots_[i]);
        slots_[i] = Slot();
        taken_ = i + 1;
        changed_.notify_all();
        if (slot.failure) std::rethrow_exception(slot.failure);
        return std::move(*slot.value);
    }

    // No new job starts; waits for the running ones (Ctrl-C, or the caller gave up).
    void stop() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopped_ = true;
            changed_.notify_all();
        }
        for (auto& t : threads_)
            if (t.joinable()) t.join();
    }

private:
    struct Slot {
        bool done = false;
        std::optional<T> value;
        std::exception_ptr failure;
    };

    void work() {
        for (;;) {
            size_t i;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                changed_.wait(lock, [&] { return stopped_ || next_ >= slots_.size() || next_ < taken_ + ahead_; });
                if (stopped_ || next_ >= slots_.size()) return;
                i = next_++;
            }
            Slot slot;
            try {
                slot.value.emplace(job_(i));
            } catch (...) {
                slot.failure = std::current_exception();
            }
            slot.done = true;
            std::lock_guard<std::mutex> lock(mutex_);
            slots_[i] = std::move(slot);
            changed_.notify_all();
        }
    }

    std::function<T(size_t)> job_;
    std::vector<Slot> slots_;
    size_t ahead_;
    size_t next_ = 0;   // the next item a worker starts
    size_t taken_ = 0;  // the item the caller takes next
    bool stopped_ = false;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::thread> threads_;
};

}  // namespace alignscope::cli
