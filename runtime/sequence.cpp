// Sequence and what its tasks share: failure, tasks in flight, info slots; the submission scope.
#include <starpu.h>

#include <algorithm>
#include <exception>
#include <limits>

#include "runtime/mpi_internal.hpp"
#include "runtime/sequence_internal.hpp"

namespace tessera {
namespace detail {

// ---- TaskGroup

void TaskGroup::fail(const std::string& message) noexcept {
    std::lock_guard<std::mutex> guard(lock_);
    if (failed_.load(std::memory_order_relaxed)) return;
    try {
        message_ = message;
    } catch (...) {  // keep the failure even when its message cannot be copied
        message_.clear();
    }
    failed_.store(true, std::memory_order_release);
}

std::string TaskGroup::message() const {
    std::lock_guard<std::mutex> guard(lock_);
    return failed_.load(std::memory_order_relaxed) && message_.empty()
               ? "tessera: a task failed (its message was lost: out of memory)"
               : message_;
}

void TaskGroup::task_submitted() noexcept {
    std::lock_guard<std::mutex> guard(lock_);
    ++pending_;
    submissions_.fetch_add(1, std::memory_order_relaxed);
}

void TaskGroup::task_finished() noexcept {
    // Notify under the lock: a waiter may destroy its Sequence as soon as it sees 0, but the group
    // itself stays alive through the caller's reference.
    std::lock_guard<std::mutex> guard(lock_);
    if (--pending_ == 0) idle_.notify_all();
}

void TaskGroup::wait_idle() noexcept {
    std::vector<std::shared_ptr<void>> held;
    {
        std::unique_lock<std::mutex> guard(lock_);
        idle_.wait(guard, [this] { return pending_ == 0; });
        held.swap(held_);
    }
    // `held` released here, outside the lock.
}

int* TaskGroup::info_slot(int64_t offset) {
    std::lock_guard<std::mutex> guard(lock_);
    slots_.emplace_back(offset, 0);
    return &slots_.back().second;
}

int64_t TaskGroup::info() const {
    std::lock_guard<std::mutex> guard(lock_);
    int64_t info = std::numeric_limits<int64_t>::max();
    for (const auto& [offset, local] : slots_)
        if (local > 0) info = std::min(info, offset + local);
    return info == std::numeric_limits<int64_t>::max() ? 0 : info;
}

void TaskGroup::hold(std::shared_ptr<void> resource) {
    std::lock_guard<std::mutex> guard(lock_);
    held_.push_back(std::move(resource));
}

// ---- Submission scope and the thread's detached group

namespace {
thread_local SubmitScope* t_scope = nullptr;
thread_local std::shared_ptr<TaskGroup> t_detached;  // created on first use, replaced once reported
}  // namespace

std::shared_ptr<TaskGroup> current_group() {
    if (t_scope) return t_scope->group_;
    if (!t_detached) t_detached = std::make_shared<TaskGroup>();
    return t_detached;
}

int* info_slot(int64_t offset) { return current_group()->info_slot(offset); }

void drain_detached() noexcept {
    if (t_detached) t_detached->wait_idle();
}

void wait_detached() {
    drain_detached();
    if (!t_detached || !t_detached->failed()) return;
    const std::string message = t_detached->message();
    t_detached.reset();  // tasks already submitted keep the failed group; new ones start afresh
    throw TaskError(message);
}

void track_temporary(TileHandle h) {
    if (!t_scope) return;
    try {
        t_scope->temporaries_.push_back(h);
    } catch (...) {
        starpu_data_unregister_submit(h);  // untracked, it would never be released
        throw;
    }
}

void untrack_temporary(TileHandle h) {
    for (SubmitScope* s = t_scope; s; s = s->outer_) {
        auto& t = s->temporaries_;
        auto it = std::find(t.begin(), t.end(), h);
        if (it != t.end()) {
            t.erase(it);
            return;
        }
    }
}

}  // namespace detail

struct Sequence::State {
    std::shared_ptr<detail::TaskGroup> group = std::make_shared<detail::TaskGroup>();
};

detail::SubmitScope::SubmitScope(Sequence& seq)
    : group_(seq.state_->group), outer_(t_scope), uncaught_(std::uncaught_exceptions()),
      submissions_(group_->submissions()) {
    t_scope = this;
}

detail::SubmitScope::~SubmitScope() {
    t_scope = outer_;
    if (std::uncaught_exceptions() > uncaught_) {
        // Interrupted: a graph begun here is incomplete, so its sequence must not report success;
        // the temporaries the algorithm would have released go once their submitted tasks have run.
        if (group_->submissions() != submissions_)
            group_->fail("tessera: the submission of the sequence's tasks was interrupted by an exception");
        for (TileHandle h : temporaries_) starpu_data_unregister_submit(h);
    } else if (outer_) {
        // Released later by the outer algorithm, or unregistered if it is interrupted.
        try {
            outer_->temporaries_.insert(outer_->temporaries_.end(), temporaries_.begin(), temporaries_.end());
        } catch (...) {  // out of memory: they would merely not be cleaned up after an interruption
        }
    }
}

// ---- Sequence

Sequence::Sequence() : state_(std::make_unique<State>()) {}

// Tasks already submitted write into the caller's data (info slots, pivots, tiles): never let them
// outlive the frame that owns it, even when an exception unwinds it.
Sequence::~Sequence() { state_->group->wait_idle(); }

int64_t Sequence::wait() {
    detail::TaskGroup& group = *state_->group;
    group.wait_idle();
    // Distributed, each rank ran its share of the tasks: every rank learns the first failure and
    // the smallest info of all (in one process this returns what it is given).
    const auto [failure, info] = detail::mpi_agree(group.failed() ? group.message() : std::string(), group.info());
    if (!failure.empty()) {  // the sequence's own failure first; the thread's, if any, stays for later
        detail::drain_detached();
        throw TaskError(failure);
    }
    detail::wait_detached();
    return info;
}

}  // namespace tessera
