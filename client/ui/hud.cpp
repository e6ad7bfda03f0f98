#include "client/ui/hud.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "client/solo/results.h"

namespace sr::client {
namespace {

ImU32 rgba(int r, int g, int b, float a = 1.0f) {
  return IM_COL32(r, g, b, static_cast<int>(std::clamp(a, 0.0f, 1.0f) * 255));
}

void text_centred(ImDrawList* dl, ImFont* font, float px, float cx, float y, ImU32 col, const std::string& s) {
  const ImVec2 size = font->CalcTextSizeA(px, 1e9f, 0, s.c_str());
  const float alpha = static_cast<float>((col >> IM_COL32_A_SHIFT) & 0xFF) / 255.0f;  // the shadow fades along
  dl->AddText(font, px, ImVec2(std::floor(cx - size.x / 2) + 2, y + 2), rgba(0, 0, 0, 0.7f * alpha), s.c_str());
  dl->AddText(font, px, ImVec2(std::floor(cx - size.x / 2), y), col, s.c_str());
}

}  // namespace

std::vector<HudLine> hud_lines(const engine::Game& game) {
  const auto& c = game.config();
  const auto& st = game.stats();
  std::vector<HudLine> out;
  if (c.limit == engine::LimitKind::kTime) {
    out.push_back({"TIME LEFT", format_time(std::max<engine::TimeUs>(0, c.limit_value * 1'000'000 - st.time_us))});
  } else {
    out.push_back({"TIME", format_time(st.time_us)});
  }
  if (c.limit == engine::LimitKind::kLines) {
    out.push_back({"LINES", format_count(st.lines) + " / " + format_count(c.limit_value)});
  } else {
    out.push_back({"LINES", format_count(st.lines)});
  }
  if (c.mode != engine::ModeKind::kSprint) out.push_back({"SCORE", format_count(st.score)});
  if (c.mode != engine::ModeKind::kSprint && c.mode != engine::ModeKind::kUltra) {
    out.push_back({"LEVEL", std::to_string(st.level)});
  }
  out.push_back({"PIECES", format_count(st.pieces)});
  out.push_back({"PPS", format_pps(st.pieces, st.time_us)});
  out.push_back({"KPP", format_kpp(st.key_presses, st.pieces)});
  return out;
}

void draw_hud(const Fonts& fonts, const HudBoard& b, double now_s) {
  if (b.game == nullptr) return;
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  const BoardLayout& l = b.layout;
  const float s = l.cell;
  const float label_px = std::clamp(s * 0.75f, 8.0f, fonts.body_px * 1.2f);
  const float value_px = std::clamp(s * 1.0f, 8.0f, fonts.body_px * 1.6f);
  const ImU32 label_col = rgba(150, 155, 180);
  const ImU32 value_col = rgba(240, 240, 245);
  const float panel_cx = l.hold_x() + 2.5f * s;

  if (!b.name.empty() && s >= 6.0f) {
    text_centred(dl, fonts.body, label_px, l.matrix_x() + 5 * s, l.matrix_bottom() + 0.3f * s, label_col, b.name);
  }
  if (s >= 6.0f) {
    if (b.game->config().hold_enabled)
      text_centred(dl, fonts.body, label_px, panel_cx, l.matrix_y() + 0.15f * s, label_col, "HOLD");
    if (b.game->config().preview > 0) {
      text_centred(dl, fonts.body, label_px, l.next_x() + 2.5f * s, l.matrix_y() + 0.15f * s, label_col, "NEXT");
    }
  }

  // Numbers in the left panel, from the bottom of the matrix upwards.
  if (s >= 9.0f) {
    const auto lines = hud_lines(*b.game);
    float y = l.matrix_bottom() - static_cast<float>(lines.size()) * (label_px + value_px + 0.35f * s);
    const float right = l.matrix_x() - 0.6f * s;
    for (const auto& line : lines) {
      const ImVec2 lw = fonts.body->CalcTextSizeA(label_px, 1e9f, 0, line.label.c_str());
      dl->AddText(fonts.body, label_px, ImVec2(right - lw.x, y), label_col, line.label.c_str());
      y += label_px;
      const ImVec2 vw = fonts.big->CalcTextSizeA(value_px, 1e9f, 0, line.value.c_str());
      dl->AddText(fonts.big, value_px, ImVec2(right - vw.x, y), value_col, line.value.c_str());
      y += value_px + 0.35f * s;
    }
  } else if (s >= 4.0f) {
    const auto& st = b.game->stats();
    text_centred(dl, fonts.body, std::max(8.0f, s * 1.4f), l.matrix_x() + 5 * s, l.y + 0.1f * s, value_col,
                 format_count(st.lines) + "L " + format_pps(st.pieces, st.time_us) + " pps");
  }

  // Clear names, newest lowest, fading out, over the lower middle of the matrix.
  if (b.feedback != nullptr) {
    float y = l.matrix_y() + 11.0f * s;
    for (const auto& banner : b.feedback->banners()) {
      const float age = static_cast<float>(now_s - banner.at_s);
      const float alpha = std::clamp(1.0f - (age - 1.0f) / 0.6f, 0.0f, 1.0f);
      const float pop = 1.0f + 0.25f * std::max(0.0f, 1.0f - age / 0.15f);
      for (std::size_t i = 0; i < banner.lines.size(); ++i) {
        float px = (i == 0 ? 1.25f : 0.9f) * s * pop;
        // Long names ("Back-to-back T-spin triple") shrink to stay within the matrix.
        const float width = fonts.big->CalcTextSizeA(px, 1e9f, 0, banner.lines[i].c_str()).x;
        if (width > 9.6f * s) px *= 9.6f * s / width;
        text_centred(dl, fonts.big, px, l.matrix_x() + 5 * s, y,
                     i == 0 ? rgba(255, 230, 120, alpha) : rgba(200, 220, 255, alpha), banner.lines[i]);
        y += px * 1.1f;
      }
      y += 0.3f * s;
    }
  }

  if (b.countdown_left_s > 0) {
    const int n = static_cast<int>(std::ceil(b.countdown_left_s));
    const float frac = static_cast<float>(b.countdown_left_s - std::floor(b.countdown_left_s));
    const float px = 4.0f * s * (0.8f + 0.4f * frac);
    text_centred(dl, fonts.big, px, l.matrix_x() + 5 * s, l.matrix_y() + 10 * s - px / 2,
                 rgba(255, 255, 255, 0.4f + 0.6f * frac), std::to_string(n));
  }
}

void draw_banner(const Fonts& fonts, const BoardLayout& l, const std::string& title, const std::string& detail) {
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  const float s = l.cell;
  const float max_w = 9.2f * s;  // within the matrix (10 cells), a little margin
  const auto fit = [&](ImFont* font, float px, const std::string& text) {
    const float w = font->CalcTextSizeA(px, 1e9f, 0, text.c_str()).x;
    return w > max_w ? px * max_w / w : px;
  };
  const float title_px = fit(fonts.big, std::clamp(s * 1.3f, 8.0f, fonts.big_px), title);
  const float detail_px = detail.empty() ? 0.0f : fit(fonts.big, std::clamp(s * 1.0f, 8.0f, fonts.big_px), detail);
  const float cx = l.matrix_x() + 5 * s;
  const float top = l.matrix_y() + 5 * s;
  const float h = title_px + (detail.empty() ? 0.0f : detail_px * 1.15f);
  dl->AddRectFilled(ImVec2(l.matrix_x() + 0.2f * s, top - 0.4f * s),
                    ImVec2(l.matrix_x() + 9.8f * s, top + h + 0.4f * s), IM_COL32(0, 0, 0, 200), 0.3f * s);
  text_centred(dl, fonts.big, title_px, cx, top, rgba(255, 230, 120), title);
  if (!detail.empty()) text_centred(dl, fonts.big, detail_px, cx, top + title_px * 1.1f, rgba(240, 240, 245), detail);
}

}  // namespace sr::client
