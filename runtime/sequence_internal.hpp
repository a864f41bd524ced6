// What the tasks of one Sequence share (first failure, tasks in flight, LAPACK info slots) and the
// thread-local scope that attaches the tasks an algorithm submits to its Sequence. Internal.
//
// Why a thread-local scope: the typed task functions (codelets/tasks*.hpp) do not take a Sequence,
// and threading one through every tile loop would bury the textbook algorithms in plumbing. Each
// `_async` entry point opens one SubmitScope; codelets::new_task asks current_group() and gives the
// task a reference to that group. Tasks submitted outside any scope (TileMatrix::fill_from_lapack,
// generate, to_lapack called by the application) join the submitting thread's own "detached"
// group, which the thread's next wait drains and whose first failure it reports (wait_detached()).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "tessera/tile_matrix.hpp"

namespace tessera::detail {

/// The shared state of the tasks of one Sequence (or of one thread's tasks submitted outside any).
/// Each task holds a reference until its completion callback has run, so the group outlives its
/// tasks whatever the order in which the Sequence and the tasks end.
class TaskGroup {
public:
    TaskGroup() = default;
    TaskGroup(const TaskGroup&) = delete;
    TaskGroup& operator=(const TaskGroup&) = delete;

    /// Record a failure; the first message is kept. Later tasks of the group skip their work.
    void fail(const std::string& message) noexcept;
    bool failed() const noexcept { return failed_.load(std::memory_order_acquire); }
    /// The first failure's message ("" while none).
    std::string message() const;

    /// Bookkeeping of tasks in flight: one task_submitted() before starpu_task_submit, one
    /// task_finished() from its completion callback (or when its submission failed).
    void task_submitted() noexcept;
    void task_finished() noexcept;
    /// Number of task_submitted() calls so far.
    uint64_t submissions() const noexcept { return submissions_.load(std::memory_order_relaxed); }
    /// Block until every task submitted into the group has completed, then drop what hold() kept.
    void wait_idle() noexcept;

    /// A slot a kernel writes its local info into; the global info is offset + value.
    int* info_slot(int64_t offset);
    /// 0, or the smallest offset + value over the slots with a value > 0 (LAPACK's convention).
    int64_t info() const;

    /// Keep `resource` until the group next drains (wait_idle) or dies: a reservation that must
    /// last while the group's tasks may run (the device prefetch budget, codelets/prefetch.cpp).
    void hold(std::shared_ptr<void> resource);

private:
    std::atomic<bool> failed_{false};
    std::atomic<uint64_t> submissions_{0};
    mutable std::mutex lock_;
    std::condition_variable idle_;
    int64_t pending_ = 0;
    std::string message_;
    std::deque<std::pair<int64_t, int>> slots_;  // deque: addresses stay valid for the kernels
    std::vector<std::shared_ptr<void>> held_;
};

/// While it lives, the tasks the calling thread submits belong to `seq`. Scopes nest (an `_async`
/// algorithm calling another restores the outer scope on exit). When the scope ends by an
/// exception (a refused submission, an allocation failure) after tasks were submitted under it,
/// the sequence is marked failed (its graph is incomplete: its wait must not report success; an
/// invalid argument refused before any submission leaves it untouched), and the temporary
/// handles registered under the scope and not yet released are unregistered once their submitted
/// tasks have run, so that nothing is left behind.
class SubmitScope {
public:
    explicit SubmitScope(Sequence& seq);
    ~SubmitScope();
    SubmitScope(const SubmitScope&) = delete;
    SubmitScope& operator=(const SubmitScope&) = delete;

private:
    friend std::shared_ptr<TaskGroup> current_group();
    friend void track_temporary(TileHandle);
    friend void untrack_temporary(TileHandle);
    std::shared_ptr<TaskGroup> group_;
    SubmitScope* outer_;
    int uncaught_;                        // std::uncaught_exceptions() at entry
    uint64_t submissions_;                // group_->submissions() at entry
    std::vector<TileHandle> temporaries_; // registered under this scope, not yet released
};

/// The group the calling thread's next task joins: the innermost SubmitScope's sequence, else the
/// thread's detached group.
std::shared_ptr<TaskGroup> current_group();
/// A slot of current_group() (inside an `_async` algorithm: its sequence's) that a kernel writes its
/// local info into (0 = success, > 0 = 1-based local column); the sequence's info is `offset` +
/// the slot's value. The pointer stays valid while the sequence lives.
int* info_slot(int64_t offset);
/// Wait for the tasks the calling thread submitted outside any Sequence; if one of them failed,
/// forget that failure (later detached tasks run again) and throw it as TaskError. Every wait
/// calls it, so that "the next wait" reports such a failure deterministically and the arrays that
/// fill_from_lapack reads stay in use no longer than the next wait on the submitting thread.
void wait_detached();
/// The waiting part of wait_detached() alone: the failure, if any, stays for the next wait.
void drain_detached() noexcept;
/// Record / forget a temporary handle (temp tile, dependency token) of the current scope.
void track_temporary(TileHandle h);
void untrack_temporary(TileHandle h);

}  // namespace tessera::detail
