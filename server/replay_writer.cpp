#include "server/replay_writer.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdlib>

#include "common/replay/simulate.h"
#include "replays/store/replay_store.h"

namespace sr::server {

ReplayWriter::~ReplayWriter() { stop(); }

sr::Status<std::string> ReplayWriter::start(const std::filesystem::path& dir) {
  // Open once here so a bad directory is reported at start-up, not at the first race's end.
  auto store = replay::ReplayStore::open(dir, true);
  if (!store.ok()) return "cannot open the replay store in " + dir.string() + ": " + store.error().message;
  worker_ = std::thread([this, dir] { run(dir); });
  return {};
}

void ReplayWriter::submit(Job job) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(job));
  }
  wake_.notify_one();
}

std::vector<ReplayWriter::Done> ReplayWriter::collect() {
  std::lock_guard lock(mutex_);
  std::vector<Done> out;
  out.swap(done_);
  return out;
}

void ReplayWriter::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (worker_.joinable()) worker_.join();
}

std::uint64_t ReplayWriter::written() const {
  std::lock_guard lock(mutex_);
  return written_;
}

std::uint64_t ReplayWriter::failed() const {
  std::lock_guard lock(mutex_);
  return failed_;
}

sr::Status<std::string> ReplayWriter::complete(Job& job) {
  if (job.ends.size() != job.replay.racers.size()) return "the race's end is not known for every racer";
  for (std::size_t i = 0; i < job.ends.size(); ++i) {
    replay::record_racer(job.replay, i, job.ends[i].end_us, job.ends[i].if_unfinished);
  }
  return replay::check_replay(job.replay);
}

void ReplayWriter::run(std::filesystem::path dir) {
  // Background work: on a busy host the main loop's relays come first. (Linux: this thread's niceness only.)
  (void)setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10);
  auto store = replay::ReplayStore::open(dir, true);
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and everything is written
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    Done done{job.room_id, job.race_id, std::nullopt, {}};
    if (auto completed = complete(job); !completed) {
      done.error = "replay not valid: " + completed.error();
    } else if (!store.ok()) {
      done.error = store.error().message;
    } else {
      auto id = store.value().add(job.replay);
      if (id.ok()) {
        done.game_id = id.value();
      } else {
        done.error = id.error().message;
      }
    }
    if (!done.game_id)
      spdlog::error("replay of race {} in room {} not stored: {}", job.race_id, job.room_id, done.error);
    std::lock_guard lock(mutex_);
    (done.game_id ? written_ : failed_) += 1;
    done_.push_back(std::move(done));
  }
}

std::uint64_t game_id_number(const std::string& store_id) {
  if (store_id.empty() || store_id.size() > 16) return 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(store_id.c_str(), &end, 16);
  return end != nullptr && *end == '\0' ? static_cast<std::uint64_t>(v) : 0;
}

std::string game_id_text(std::uint64_t game_id) { return fmt::format("{:016x}", game_id); }

}  // namespace sr::server
