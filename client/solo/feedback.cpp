#include "client/solo/feedback.h"

#include <algorithm>

namespace sr::client {
namespace {

const char* lines_word(int lines, bool lower) {
  static const char* const kUpper[] = {"", "Single", "Double", "Triple", "Tetris"};
  static const char* const kLower[] = {"", "single", "double", "triple", "Tetris"};
  if (lines < 0 || lines > 4) return "";
  return lower ? kLower[lines] : kUpper[lines];
}

}  // namespace

std::vector<std::string> clear_names(const engine::Event& e) {
  std::vector<std::string> out;
  if (e.kind != engine::EventKind::kClear) return out;
  std::string main;
  if (e.spin != engine::SpinKind::kNone) {
    const char letter = engine::piece_letter(e.piece);
    main = std::string(1, letter) + "-spin";
    if (e.spin == engine::SpinKind::kMini) main += " mini";
    if (e.lines > 0) main += std::string(" ") + lines_word(e.lines, true);
  } else if (e.lines > 0) {
    main = lines_word(e.lines, false);
  }
  if (main.empty()) return out;
  if (e.b2b) main = "Back-to-back " + main;
  out.push_back(main);
  if (e.perfect_clear) out.emplace_back("Perfect clear");
  if (e.combo >= 1) out.push_back(std::to_string(e.combo) + " combo");
  return out;
}

void Feedback::on_events(std::span<const engine::Event> events, double now_s) {
  for (const auto& e : events) {
    switch (e.kind) {
      case engine::EventKind::kHardDrop: pending_drop_rows_ = e.rows; break;
      case engine::EventKind::kLock: {
        LockFlash f{now_s, e.piece, engine::piece_cells(e.piece, e.rotation), pending_drop_rows_};
        for (auto& c : f.cells) {
          c.x = static_cast<std::int8_t>(c.x + e.x);
          c.y = static_cast<std::int8_t>(c.y + e.y);
        }
        locks_.push_back(f);
        pending_drop_rows_ = 0;
        break;
      }
      case engine::EventKind::kClear: {
        if (e.rows_mask != 0) rows_.push_back({now_s, static_cast<std::uint64_t>(e.rows_mask)});
        auto names = clear_names(e);
        if (!names.empty()) banners_.push_back({now_s, std::move(names)});
        break;
      }
      default: break;
    }
  }
}

void Feedback::expire(double now_s) {
  std::erase_if(locks_, [&](const LockFlash& f) { return now_s - f.at_s > kLockFlashS; });
  std::erase_if(rows_, [&](const RowFlash& f) { return now_s - f.at_s > kRowFlashS; });
  std::erase_if(banners_, [&](const ClearBanner& b) { return now_s - b.at_s > kBannerS; });
  if (banners_.size() > 3) banners_.erase(banners_.begin(), banners_.end() - 3);
}

void Feedback::clear() {
  locks_.clear();
  rows_.clear();
  banners_.clear();
  pending_drop_rows_ = 0;
}

}  // namespace sr::client
