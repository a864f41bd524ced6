// ProgressDisplay: the Runtime's progress observer (or update() calls) to one line on stderr.
#include "examples/common/progress_display.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

namespace tessera::tool {
namespace {

constexpr double kRefreshS = 0.25;  // terminal refreshes at most 4 times a second

double steady_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// "  ETA 12 s" from the fraction done and the time it took; "" while unknown.
std::string eta(double fraction, double elapsed_s) {
    if (!(fraction > 0) || fraction >= 1 || !(elapsed_s > 0)) return "";
    char s[48];
    std::snprintf(s, sizeof s, "  ETA %.0f s", elapsed_s * (1 - fraction) / fraction);
    return s;
}

}  // namespace

ProgressDisplay::ProgressDisplay(Runtime& runtime, std::string stage, bool quiet)
    : ProgressDisplay(runtime, std::move(stage), quiet, stderr, isatty(STDERR_FILENO) == 1) {}

ProgressDisplay::ProgressDisplay(std::string stage, bool quiet)
    : ProgressDisplay(std::move(stage), quiet, stderr, isatty(STDERR_FILENO) == 1) {}

ProgressDisplay::ProgressDisplay(Runtime& runtime, std::string stage, bool quiet, std::FILE* out, bool terminal)
    : runtime_(&runtime), stage_(std::move(stage)), quiet_(quiet), out_(out), terminal_(terminal) {
    start_ = runtime.progress();
    start_s_ = steady_s();
    if (!quiet_ && terminal_)  // off a terminal only the final line is written: no observer needed
        runtime.set_progress_observer([this](const ProgressSnapshot& now) { on_progress(now); }, kRefreshS);
}

ProgressDisplay::ProgressDisplay(std::string stage, bool quiet, std::FILE* out, bool terminal)
    : stage_(std::move(stage)), quiet_(quiet), out_(out), terminal_(terminal), start_s_(steady_s()) {}

ProgressDisplay::~ProgressDisplay() {
    try {
        if (runtime_ && !quiet_ && terminal_) runtime_->set_progress_observer({});  // waits for a call in progress
        if (quiet_) return;
        std::lock_guard<std::mutex> guard(lock_);
        const std::string line = runtime_ ? tasks_line(runtime_->progress(), true) : work_line(elapsed_s(), true);
        if (terminal_ && shown_) std::fprintf(out_, "\r%s\033[K\n", line.c_str());
        else std::fprintf(out_, "%s\n", line.c_str());
        std::fflush(out_);
    } catch (...) {  // a destructor never throws
    }
}

void ProgressDisplay::update(double done, double total) {
    if (runtime_ || quiet_) return;
    std::lock_guard<std::mutex> guard(lock_);
    done_ = done, total_ = total;
    if (!terminal_) return;
    const double t = elapsed_s();
    if (last_shown_s_ >= 0 && t - last_shown_s_ < kRefreshS) return;
    last_shown_s_ = t;
    show(work_line(t, false));
}

void ProgressDisplay::on_progress(const ProgressSnapshot& now) {
    std::lock_guard<std::mutex> guard(lock_);
    show(tasks_line(now, false));
}

void ProgressDisplay::show(const std::string& line) {
    std::fprintf(out_, "\r%s\033[K", line.c_str());
    std::fflush(out_);
    shown_ = true;
}

double ProgressDisplay::elapsed_s() const { return steady_s() - start_s_; }

std::string ProgressDisplay::tasks_line(const ProgressSnapshot& now, bool final) const {
    const int64_t submitted = std::max<int64_t>(0, now.tasks_submitted - start_.tasks_submitted);
    const int64_t done = std::min(submitted, std::max<int64_t>(0, now.tasks_done - start_.tasks_done));
    const double flops = std::max(0.0, now.flops_done - start_.flops_done);
    const double flops_total = std::max(0.0, now.flops_submitted - start_.flops_submitted);
    const double t = std::max(0.0, now.seconds - start_.seconds);
    char rate[48] = "";
    if (flops > 0 && t > 0) std::snprintf(rate, sizeof rate, "%s%.1f GFLOP/s", final ? ", " : "  ", flops / t * 1e-9);
    char s[256];
    if (final) {
        std::snprintf(s, sizeof s, "%s: %lld tasks in %.1f s%s", stage_.c_str(), static_cast<long long>(done), t, rate);
        return s;
    }
    const double fraction = flops_total > 0 ? flops / flops_total : submitted > 0 ? double(done) / double(submitted) : 0;
    std::snprintf(s, sizeof s, "%s: %lld/%lld tasks%s%s", stage_.c_str(), static_cast<long long>(done),
                  static_cast<long long>(submitted), rate, eta(fraction, t).c_str());
    return s;
}

std::string ProgressDisplay::work_line(double elapsed, bool final) const {
    const bool known = total_ > 0 && std::isfinite(done_);
    const double fraction = known ? std::clamp(done_ / total_, 0.0, 1.0) : 0;
    char s[256];
    if (final && (!known || fraction >= 1))
        std::snprintf(s, sizeof s, "%s: done in %.1f s", stage_.c_str(), elapsed);
    else if (final)
        std::snprintf(s, sizeof s, "%s: %.0f%% after %.1f s", stage_.c_str(), 100 * fraction, elapsed);
    else
        std::snprintf(s, sizeof s, "%s: %.0f%%%s", stage_.c_str(), 100 * fraction, eta(fraction, elapsed).c_str());
    return s;
}

}  // namespace tessera::tool
