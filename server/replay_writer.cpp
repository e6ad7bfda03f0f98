#include "server/replay_writer.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "common/replay/codec.h"
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
  if (!options_.spool_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options_.spool_dir, ec);
    if (ec) return "cannot create the replay spool " + options_.spool_dir.string() + ": " + ec.message();
    if (auto writable = replay::check_writable(options_.spool_dir); !writable) {
      return "cannot write the replay spool in " + options_.spool_dir.string() + ": " + writable.error();
    }
    const std::vector<std::filesystem::path> waiting = spool_files();
    spool_pending_.store(waiting.size());
    for (const std::filesystem::path& f : waiting) {
      next_spool_sequence_ =
          std::max<std::uint64_t>(next_spool_sequence_, std::strtoull(f.filename().c_str(), nullptr, 10) + 1);
    }
    if (!waiting.empty()) {
      spdlog::warn("replay spool {}: {} replays waiting for the database (stored first)", options_.spool_dir.string(),
                   waiting.size());
    }
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
  (void)ensure_store(dir);
  const auto retry = std::chrono::milliseconds(std::max<std::int64_t>(1, options_.spool_retry_ms));
  for (;;) {
    std::optional<Queued> queued;
    {
      std::unique_lock lock(mutex_);
      const auto ready = [this] { return stopping_ || !queue_.empty(); };
      if (spool_pending_.load() > 0) {
        wake_.wait_for(lock, retry, ready);
      } else {
        wake_.wait(lock, ready);
      }
      if (!queue_.empty()) {
        queued = std::move(queue_.front());
        queue_.pop_front();
      } else if (stopping_) {
        break;  // everything queued is written (or spooled)
      }
    }
    if (spool_pending_.load() > 0) flush_spool(dir);
    if (!queued) continue;
    Job& job = queued->job;
    Done done;
    done.room_id = job.room_id;
    done.race_id = job.race_id;
    if (auto completed = complete(job); !completed) {
      done.error = "replay not valid: " + completed.error();
    } else {
      store_job(dir, job, done);
    }
    if (!done.game_id) done.reason = player_reason(done.error);
    if (!done.game_id)
      spdlog::error("replay of race {} in room {} not stored: {}", job.race_id, job.room_id, done.error);
    if (!in_database_) check_space(dir);
    done.wait_us = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - queued->submitted).count();
    const std::optional<std::string> stored = done.game_id;
    {
      std::lock_guard lock(mutex_);
      if (done.game_id && !done.spooled) written_ += 1;
      if (!done.game_id) failed_ += 1;
      wait_us_total_ += done.wait_us;
      wait_us_max_ = std::max(wait_us_max_, done.wait_us);
      done_.push_back(std::move(done));
    }
    if (stored && options_.on_stored) options_.on_stored(job, *stored);
  }
  // A last try, so that a database that came back is not left waiting for the next start; what stays is stored then.
  if (spool_pending_.load() > 0) flush_spool(dir);
  if (spool_pending_.load() > 0) {
    spdlog::warn("replay spool {}: {} replays still wait for the database; the next start stores them",
                 options_.spool_dir.string(), spool_pending_.load());
  }
}

sr::Status<std::string> ReplayWriter::ensure_store(const std::filesystem::path& dir) {
  if (store_) return {};
  // Opened again for each race until it opens: a database that was down at this thread's start comes back. With a
  // spool, a database that does not answer gives way to it before the race's results are due.
  replay::StoreWaits waits;
  if (!options_.spool_dir.empty()) waits.max_wait_ms = options_.store_wait_ms;
  auto opened = replay::ReplayStore::open(dir, true, waits);
  if (!opened.ok()) return opened.error().message;
  store_.emplace(std::move(opened).value());
  return {};
}

void ReplayWriter::store_job(const std::filesystem::path& dir, Job& job, Done& done) {
  if (spool_pending_.load() == 0) {
    if (auto opened = ensure_store(dir); !opened) {
      done.error = opened.error();
    } else if (auto id = store_->add(job.replay); id.ok()) {
      done.game_id = id.value();
      return;
    } else {
      done.error = id.error().message;
    }
    if (options_.spool_dir.empty()) return;
    spdlog::error("replay of race {} in room {}: the database did not take it ({}); keeping it in the spool {}",
                  job.race_id, job.room_id, done.error, options_.spool_dir.string());
  }
  // Behind the races already waiting, so that the database receives them in order.
  if (auto spooled = spool(job.replay); !spooled) {
    done.error += (done.error.empty() ? "" : "; ") + spooled.error();
    return;
  }
  done.error.clear();
  done.game_id = replay::content_id(replay::encode_binary(job.replay));
  done.spooled = true;
  spooled_.fetch_add(1);
}

std::vector<std::filesystem::path> ReplayWriter::spool_files() const {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(options_.spool_dir, ec)) {
    const std::string name = entry.path().filename().string();
    // <20 digits>-<id>.srr; write_file_atomic's temporary files start with '.'.
    if (entry.is_regular_file(ec) && name.size() > 21 && name[20] == '-' &&
        std::all_of(name.begin(), name.begin() + 20, [](char c) { return c >= '0' && c <= '9'; }) &&
        entry.path().extension() == replay::ReplayStore::kExtension) {
      out.push_back(entry.path());
    }
  }
  std::sort(out.begin(), out.end());  // the sequence numbers have a fixed width: by name is by age
  return out;
}

sr::Status<std::string> ReplayWriter::spool(const replay::Replay& replay) {
  const std::vector<std::uint8_t> bytes = replay::encode_binary(replay);
  const std::string name =
      fmt::format("{:020d}-{}{}", next_spool_sequence_, replay::content_id(bytes), replay::ReplayStore::kExtension);
  if (auto written = replay::write_file_atomic(options_.spool_dir / name, bytes); !written) {
    return "cannot keep it in the spool either: " + written.error();
  }
  ++next_spool_sequence_;
  spool_pending_.fetch_add(1);
  return {};
}

void ReplayWriter::flush_spool(const std::filesystem::path& dir) {
  for (const std::filesystem::path& file : spool_files()) {
    auto bytes = replay::read_file(file);
    auto replay = bytes.ok() ? replay::decode_binary(bytes.value()) : replay::Result<replay::Replay>(bytes.error());
    if (!replay.ok()) {
      // Never stored, and never in the way of the ones behind it: kept aside for the operator.
      const std::filesystem::path aside = options_.spool_dir / "unreadable";
      std::error_code ec;
      std::filesystem::create_directories(aside, ec);
      std::filesystem::rename(file, aside / file.filename(), ec);
      spdlog::error("replay spool: {} does not decode ({}); moved to {}", file.string(), replay.error().message,
                    aside.string());
      if (!ec) spool_pending_.fetch_sub(1);
      if (ec) return;
      continue;
    }
    sr::Status<std::string> stored = ensure_store(dir);
    std::string id;
    if (stored) {
      auto added = store_->add(replay.value());
      if (added.ok()) {
        id = added.value();
      } else {
        stored = added.error().message;
      }
    }
    if (!stored) {
      if (!spool_refused_) {
        spdlog::warn(
            "replay spool: the database does not take the replays yet ({}); {} waiting, trying again every {} ms",
            stored.error(), spool_pending_.load(), options_.spool_retry_ms);
      }
      spool_refused_ = true;
      return;
    }
    std::error_code ec;
    std::filesystem::remove(file, ec);
    if (ec) {
      // Stored, but still in the spool: the next try stores it again, which stores nothing (same id).
      spdlog::error("replay spool: stored {} but cannot remove {}: {}", id, file.string(), ec.message());
      return;
    }
    (void)replay::sync_dir(options_.spool_dir);
    spool_pending_.fetch_sub(1);
    spool_refused_ = false;
    {
      std::lock_guard lock(mutex_);
      written_ += 1;
    }
    spdlog::info("replay spool: stored {} in the database ({} still waiting)", id, spool_pending_.load());
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
