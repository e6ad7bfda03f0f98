#include "server/replay_writer.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "common/replay/simulate.h"
#include "replays/store/file_io.h"
#include "replays/store/pg_db.h"
#include "replays/store/replay_store.h"

namespace sr::server {

ReplayWriter::~ReplayWriter() { stop(); }

sr::Status<std::string> ReplayWriter::start(const std::filesystem::path& dir, Options options) {
  options_ = options;
  in_database_ = replay::pg::is_locator(dir.native());
  // Open once here so a bad directory (or an unreachable or read-only database) is reported at start-up, not at the
  // first race's end. A store that opens but cannot be written (a read-only disk) would lose every race: refused the
  // same way.
  auto store = replay::ReplayStore::open(dir, true);
  const std::string where = in_database_ ? replay::pg::redact_locator(dir.native()) : dir.string();
  if (!store.ok()) return "cannot open the replay store in " + where + ": " + store.error().message;
  if (in_database_) {
    // No files, no disk of ours to watch: open() has written (its schema check), so the database takes writes.
    spdlog::info("replay store in the database at {}", store.value().where());
  } else {
    if (auto writable = replay::check_writable(dir); !writable) {
      return "cannot write replays in " + dir.string() + ": " + writable.error();
    }
    // Before the first write, so that this process's own id on a leftover temporary file means a crashed writer.
    auto reconciled = store.value().reconcile();
    if (!reconciled.ok())
      return "cannot reconcile the replay store in " + dir.string() + ": " + reconciled.error().message;
    spdlog::info("replay store {}: {}", dir.string(), reconciled.value().summary());
    check_space(dir);
  }
  worker_ = std::thread([this, dir] { run(dir); });
  return {};
}

void ReplayWriter::submit(Job job) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back({std::move(job), Clock::now()});
  }
  wake_.notify_one();
}

void ReplayWriter::check_space(const std::filesystem::path& dir) {
  const std::optional<std::uint64_t> free = replay::free_bytes(dir);
  if (!free) return;
  free_bytes_.store(*free);
  const bool low = *free < options_.low_space_bytes;
  if (low_space_.exchange(low) == low) return;
  if (low) {
    spdlog::warn("replay store {}: only {} MiB free (below {} MiB): replays will soon fail to be stored", dir.string(),
                 *free >> 20, options_.low_space_bytes >> 20);
  } else {
    spdlog::info("replay store {}: {} MiB free again", dir.string(), *free >> 20);
  }
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

std::int64_t ReplayWriter::wait_us_total() const {
  std::lock_guard lock(mutex_);
  return wait_us_total_;
}

std::int64_t ReplayWriter::wait_us_max() const {
  std::lock_guard lock(mutex_);
  return wait_us_max_;
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
  if (setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10) != 0) {
    // A sandbox that forbids it (a seccomp filter) costs the races only on a busy machine: say so, and go on.
    spdlog::warn(
        "the replay writer could not lower its priority (nice 10): {}; replays are written at the "
        "server's own priority",
        std::strerror(errno));
  }
  auto store = replay::ReplayStore::open(dir, true);
  for (;;) {
    Queued queued;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and everything is written
      queued = std::move(queue_.front());
      queue_.pop_front();
    }
    Job& job = queued.job;
    Done done;
    done.room_id = job.room_id;
    done.race_id = job.race_id;
    if (auto completed = complete(job); !completed) {
      done.error = "replay not valid: " + completed.error();
    } else if (!store.ok() && !(store = replay::ReplayStore::open(dir, true)).ok()) {
      // Opened again for each race until it opens: a database that was down at this thread's start comes back.
      done.error = store.error().message;
    } else {
      auto id = store.value().add(job.replay);
      if (id.ok()) {
        done.game_id = id.value();
      } else {
        done.error = id.error().message;
      }
    }
    if (!done.game_id) done.reason = player_reason(done.error);
    if (!done.game_id)
      spdlog::error("replay of race {} in room {} not stored: {}", job.race_id, job.room_id, done.error);
    if (!in_database_) check_space(dir);
    done.wait_us = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - queued.submitted).count();
    const std::optional<std::string> stored = done.game_id;
    {
      std::lock_guard lock(mutex_);
      (done.game_id ? written_ : failed_) += 1;
      wait_us_total_ += done.wait_us;
      wait_us_max_ = std::max(wait_us_max_, done.wait_us);
      done_.push_back(std::move(done));
    }
    if (stored && options_.on_stored) options_.on_stored(job, *stored);
  }
}

std::string player_reason(const std::string& error) {
  // strerror(ENOSPC) and EDQUOT, SQLite's SQLITE_FULL, and PostgreSQL's disk_full ("could not extend file ...: No
  // space left on device" comes as the first).
  for (const char* full : {"No space left on device", "Disk quota exceeded", "database or disk is full"}) {
    if (error.find(full) != std::string::npos) return "the server's disk is full";
  }
  // A store in a database that refused the write or could not be reached (replays/store/pg_store.cpp's messages).
  if (error.find("the database at ") != std::string::npos) return "the server's database could not store it";
  if (error.rfind("replay not valid", 0) == 0) return "the race could not be made into a valid replay";
  return "the server could not write it";
}

std::uint64_t game_id_number(const std::string& store_id) {
  if (store_id.empty() || store_id.size() > 16) return 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(store_id.c_str(), &end, 16);
  return end != nullptr && *end == '\0' ? static_cast<std::uint64_t>(v) : 0;
}

std::string game_id_text(std::uint64_t game_id) { return fmt::format("{:016x}", game_id); }

}  // namespace sr::server
