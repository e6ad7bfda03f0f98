#include "server/records_queue.h"

#include <fmt/format.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <span>
#include <string_view>

#include "net/identity/submission.h"
#include "replays/store/file_io.h"

namespace sr::server {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kSignatureChars = 128;
constexpr std::size_t kSequenceDigits = 20;
constexpr const char* kReasonExtension = ".reason";

std::span<const std::uint8_t> bytes_of(std::string_view text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

// The sequence number of a queue file's name ("00000000000000000017.submission"), or 0 when it is not one.
std::uint64_t sequence_of(const std::string& name) {
  const std::string_view extension = RecordsQueue::kExtension;
  if (name.size() != kSequenceDigits + extension.size() || !name.ends_with(extension)) return 0;
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < kSequenceDigits; ++i) {
    const char c = name[i];
    if (c < '0' || c > '9') return 0;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (n > (UINT64_MAX - digit) / 10) return 0;
    n = n * 10 + digit;
  }
  return n;
}

// As the replay store's reconcile(): a temporary file is a leftover when the process that named it is gone, or is
// this one (its id reused after a crash: open() runs before this process appends).
bool writer_gone(long pid) {
  if (pid == static_cast<long>(::getpid())) return true;
  return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

// Removes the temporary files of write_file_atomic() in `dir` whose writer is gone. Returns how many.
std::size_t remove_leftovers(const fs::path& dir) {
  std::size_t removed = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const long pid = replay::temp_file_pid(entry.path().filename().string());
    if (pid <= 0 || !entry.is_regular_file() || !writer_gone(pid)) continue;
    std::error_code rm;
    if (fs::remove(entry.path(), rm)) ++removed;
  }
  if (removed > 0) (void)replay::sync_dir(dir);
  return removed;
}

bool is_lower_hex(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// A queue file's text as a submission, or why it is not one.
sr::Result<QueuedSubmission, std::string> parse_file(std::uint64_t sequence, std::string_view text) {
  if (text.size() < kSignatureChars + 2 || text[kSignatureChars] != '\n' ||
      !is_lower_hex(text.substr(0, kSignatureChars))) {
    return sr::fail(std::string("it does not start with a signature line (128 lower-case hex digits)"));
  }
  QueuedSubmission s;
  s.sequence = sequence;
  s.signature = std::string(text.substr(0, kSignatureChars));
  s.body = std::string(text.substr(kSignatureChars + 1));
  return s;
}

}  // namespace

std::string RecordsQueue::file_name(std::uint64_t sequence) {
  return fmt::format("{:0{}}{}", sequence, kSequenceDigits, kExtension);
}

sr::Status<std::string> RecordsQueue::open(const fs::path& data_dir, Limits limits) {
  limits_ = limits;
  dir_ = data_dir / kQueueDir;
  refused_dir_ = data_dir / kRefusedDir;
  for (const fs::path& dir : {dir_, refused_dir_}) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return "cannot make the records queue's folder " + dir.string() + ": " + ec.message();
    if (auto writable = replay::check_writable(dir); !writable) {
      return "cannot write the records queue in " + dir.string() + ": " + writable.error();
    }
  }
  const std::size_t leftovers = remove_leftovers(dir_) + remove_leftovers(refused_dir_);

  std::uint64_t highest = 0;
  std::size_t others = 0;
  std::error_code ec;
  std::lock_guard lock(mutex_);
  files_.clear();
  stats_ = {};
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    const std::string name = entry.path().filename().string();
    const std::uint64_t sequence = sequence_of(name);
    std::error_code size_ec;
    const std::uintmax_t size = entry.is_regular_file() ? entry.file_size(size_ec) : 0;
    if (sequence == 0 || !entry.is_regular_file() || size_ec) {
      if (name != kLastSequenceFile) ++others;
      continue;
    }
    files_[sequence] = size;
    stats_.queued_bytes += size;
    highest = std::max(highest, sequence);
  }
  if (ec) return "cannot list the records queue " + dir_.string() + ": " + ec.message();
  refused_files_ = 0;
  for (const auto& entry : fs::directory_iterator(refused_dir_, ec)) {
    const std::uint64_t sequence = sequence_of(entry.path().filename().string());
    if (sequence == 0) continue;
    ++refused_files_;
    highest = std::max(highest, sequence);
  }
  if (ec) return "cannot list " + refused_dir_.string() + ": " + ec.message();
  if (auto last = replay::read_file(dir_ / kLastSequenceFile, 64); last.ok()) {
    const std::string text(last.value().begin(), last.value().end());
    char* end = nullptr;
    const unsigned long long n = std::strtoull(text.c_str(), &end, 10);
    if (end == text.c_str() || (*end != '\n' && *end != '\0')) {
      spdlog::warn("records: {} is not a number; numbering goes on from the files queued and refused",
                   (dir_ / kLastSequenceFile).string());
    } else {
      highest = std::max<std::uint64_t>(highest, n);
    }
  }
  next_sequence_ = highest + 1;
  full_ = false;
  spdlog::info("records queue {}: {} submissions waiting, the next is number {}{}{}", dir_.string(), files_.size(),
               next_sequence_, leftovers > 0 ? fmt::format("; {} unfinished writes removed", leftovers) : "",
               others > 0 ? fmt::format("; {} other files left alone", others) : "");
  return {};
}

std::uint64_t RecordsQueue::next_sequence() const {
  std::lock_guard lock(mutex_);
  return next_sequence_;
}

sr::Status<std::string> RecordsQueue::append(const std::function<Signed(std::uint64_t sequence)>& make) {
  std::lock_guard serial(append_mutex_);
  const std::uint64_t sequence = next_sequence();
  const Signed made = make(sequence);
  const std::uint64_t bytes = made.signature.size() + 1 + made.body.size();
  if (made.body.size() > net::kMaxSubmissionBytes) {
    const std::string why = fmt::format("submission {} is {} bytes, more than the {} a records hub takes", sequence,
                                        made.body.size(), net::kMaxSubmissionBytes);
    {
      std::lock_guard lock(mutex_);
      ++stats_.dropped_too_large;
    }
    spdlog::warn("records: {}: not queued", why);
    return why;
  }
  {
    std::lock_guard lock(mutex_);
    if (files_.size() >= limits_.max_files || stats_.queued_bytes + bytes > limits_.max_bytes) {
      ++stats_.dropped_full;
      const std::string why =
          fmt::format("the records queue is full ({} submissions, {} MiB waiting; at most {} and {} MiB)",
                      files_.size(), stats_.queued_bytes >> 20, limits_.max_files, limits_.max_bytes >> 20);
      if (!full_) spdlog::warn("records: {}: new races are not submitted until the hub takes some", why);
      full_ = true;
      return why;
    }
  }
  std::string text;
  text.reserve(bytes);
  text += made.signature;
  text += '\n';
  text += made.body;
  if (auto written = replay::write_file_atomic(dir_ / file_name(sequence), bytes_of(text)); !written) {
    {
      std::lock_guard lock(mutex_);
      ++stats_.dropped_unwritable;
    }
    spdlog::error("records: submission {} not queued: {}", sequence, written.error());
    return written.error();
  }
  {
    std::lock_guard lock(mutex_);
    files_[sequence] = bytes;
    stats_.queued_bytes += bytes;
    next_sequence_ = sequence + 1;
    if (full_) spdlog::info("records: the queue has room again");
    full_ = false;
  }
  std::lock_guard listening(listener_mutex_);
  if (listener_) listener_();
  return {};
}

std::optional<QueuedSubmission> RecordsQueue::oldest() {
  for (;;) {
    std::uint64_t sequence = 0;
    {
      std::lock_guard lock(mutex_);
      if (files_.empty()) return std::nullopt;
      sequence = files_.begin()->first;
    }
    const fs::path file = dir_ / file_name(sequence);
    auto read = replay::read_file(file, net::kMaxSubmissionBytes + kSignatureChars + 1);
    std::string why;
    if (!read.ok()) {
      why = read.error().message;
    } else {
      const std::vector<std::uint8_t>& b = read.value();
      auto parsed = parse_file(sequence, std::string_view(reinterpret_cast<const char*>(b.data()), b.size()));
      if (parsed.ok()) return std::move(parsed.value());
      why = parsed.error();
    }
    spdlog::error("records: the queue file {} is damaged ({}): moved to {}", file.string(), why, refused_dir_.string());
    move_aside(sequence, "damaged in the queue, never sent: " + why);
    std::lock_guard lock(mutex_);
    ++stats_.refused;
  }
}

void RecordsQueue::delivered(std::uint64_t sequence) {
  forget(sequence, true);
  std::lock_guard lock(mutex_);
  ++stats_.sent;
}

void RecordsQueue::refuse(std::uint64_t sequence, const std::string& reason) {
  move_aside(sequence, reason);
  std::lock_guard lock(mutex_);
  ++stats_.refused;
}

void RecordsQueue::count_send_failure() {
  std::lock_guard lock(mutex_);
  ++stats_.send_failures;
}

void RecordsQueue::move_aside(std::uint64_t sequence, const std::string& reason) {
  const std::string name = file_name(sequence);
  bool keep = false;
  {
    std::lock_guard lock(mutex_);
    keep = refused_files_ < limits_.max_refused_files;
    if (keep) ++refused_files_;
  }
  if (!keep) {
    spdlog::warn("records: {} holds {} refused submissions already: submission {} deleted", refused_dir_.string(),
                 limits_.max_refused_files, sequence);
    return forget(sequence, true);
  }
  // The reason first: a crash then leaves the submission queued (and sent again), never refused without a word.
  const std::string line = reason + "\n";
  if (auto written = replay::write_file_atomic(refused_dir_ / (name + kReasonExtension), bytes_of(line)); !written) {
    spdlog::error("records: {}", written.error());
  }
  std::error_code ec;
  fs::rename(dir_ / name, refused_dir_ / name, ec);
  if (ec) {
    spdlog::error("records: cannot move {} to {}: {}", (dir_ / name).string(), refused_dir_.string(), ec.message());
    return forget(sequence, true);
  }
  (void)replay::sync_dir(refused_dir_);
  forget(sequence, false);
}

void RecordsQueue::forget(std::uint64_t sequence, bool remove_file) {
  std::uint64_t highest = 0;
  {
    std::lock_guard lock(mutex_);
    if (files_.size() == 1 && files_.count(sequence) == 1) highest = std::max(sequence, next_sequence_ - 1);
  }
  // The queue empties: its highest number must outlive the files that carried it.
  if (highest != 0) {
    const std::string text = std::to_string(highest) + "\n";
    if (auto written = replay::write_file_atomic(dir_ / kLastSequenceFile, bytes_of(text)); !written) {
      spdlog::error("records: {}", written.error());
    }
  }
  if (remove_file) {
    std::error_code ec;
    if (fs::remove(dir_ / file_name(sequence), ec)) {
      (void)replay::sync_dir(dir_);
    } else if (ec) {
      spdlog::error("records: cannot remove {}: {}", (dir_ / file_name(sequence)).string(), ec.message());
    }
  } else {
    (void)replay::sync_dir(dir_);
  }
  std::lock_guard lock(mutex_);
  if (const auto it = files_.find(sequence); it != files_.end()) {
    stats_.queued_bytes -= it->second;
    files_.erase(it);
  }
}

void RecordsQueue::set_listener(std::function<void()> listener) {
  std::lock_guard lock(listener_mutex_);
  listener_ = std::move(listener);
}

RecordsStats RecordsQueue::stats() const {
  std::lock_guard lock(mutex_);
  RecordsStats s = stats_;
  s.queued = files_.size();
  return s;
}

}  // namespace sr::server
