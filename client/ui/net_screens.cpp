#include "client/ui/net_screens.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>  // FocusWindow, SetFocusID: focus_connect()
#include <imgui_stdlib.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>

#include "client/solo/rule_labels.h"

namespace sr::client {
namespace {

// The screen's two columns (a table: separators stay in their column): the screen's content, then the chat.
bool begin_two_columns(const char* id) {
  if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp)) return false;
  ImGui::TableSetupColumn("main", ImGuiTableColumnFlags_WidthStretch, 0.55f);
  ImGui::TableSetupColumn("chat", ImGuiTableColumnFlags_WidthStretch, 0.45f);
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  return true;
}

constexpr std::array<const char*, 3> kEndlessLimits = {"nothing (until everyone tops out)", "lines", "seconds"};

// A combo over a rule's words (client/solo/rule_labels.h), indexed by the enum's value.
template <typename E, std::size_t N>
bool enum_combo(const char* label, E& value, const std::array<const char*, N>& names) {
  int i = static_cast<int>(value);
  const bool changed = ImGui::Combo(label, &i, names.data(), static_cast<int>(N));
  if (changed) value = static_cast<E>(std::clamp(i, 0, static_cast<int>(N) - 1));
  return changed;
}

bool int_field(const char* label, int& value, int lo, int hi, int step = 1) {
  const bool changed = ImGui::InputInt(label, &value, step, step * 10);
  value = std::clamp(value, lo, hi);
  return changed;
}

// A microsecond field edited in milliseconds.
bool ms_field(const char* label, std::int32_t& us, int lo_ms, int hi_ms, int step_ms) {
  int ms = us / 1000;
  const bool changed = int_field(label, ms, lo_ms, hi_ms, step_ms);
  us = ms * 1000;
  return changed;
}

// Every rule of a custom room (handling is each racer's own and not here).
bool custom_rules(RoomForm& f) {
  engine::GameConfig& c = f.custom;
  bool changed = false;
  changed |= enum_combo("Ends after", c.limit, labels::kLimit);
  if (c.limit != engine::LimitKind::kNone) {
    int v = static_cast<int>(std::clamp<std::int64_t>(c.limit_value, 1, 1'000'000));
    changed |= int_field("Limit", v, 1, c.limit == engine::LimitKind::kTime ? 86'400 : 1'000'000);
    c.limit_value = v;
  }
  changed |= enum_combo("Ranked by", c.goal, labels::kGoal);
  changed |= enum_combo("Rotation", c.rotation, labels::kRotation);
  changed |= ImGui::Checkbox("Rotate 180", &c.allow_180);
  changed |= enum_combo("Generator", c.generator, labels::kGenerator);
  if (c.generator == engine::GeneratorKind::kFixed) {
    changed |= ImGui::InputText("Sequence (I J L O S T Z)", &f.sequence);
  }
  changed |= ImGui::Checkbox("Hold", &c.hold_enabled);
  int preview = c.preview;
  changed |= int_field("Next previews", preview, 0, 7);
  c.preview = static_cast<std::uint8_t>(preview);
  changed |= ImGui::InputText("Initial board (rows top-down, '/' between)", &f.board);
  changed |= enum_combo("Gravity", c.gravity, labels::kGravity);
  changed |= int_field("Start level", c.start_level, 1, 30);
  changed |= ImGui::Checkbox("Level up", &c.level_up);
  changed |= enum_combo("Goal system", c.goal_system, labels::kGoalSystem);
  changed |= enum_combo("Lock down", c.lock_down, labels::kLockDown);
  changed |= ms_field("Lock delay (ms)", c.lock_delay_us, 1, 10'000, 50);
  changed |= int_field("Max lock resets", c.max_lock_resets, 0, 1000);
  changed |= ms_field("Ground time cap (ms)", c.ground_time_cap_us, 1, 60'000, 250);
  changed |= enum_combo("Scoring", c.scoring, labels::kScoring);
  changed |= ImGui::Checkbox("All-spin", &c.all_spin);
  return changed;
}

std::string mode_text(const protocol::ModeSummary& m) {
  std::string s = engine::mode_name(m.mode);
  if (m.limit == engine::LimitKind::kTime) return s + " " + std::to_string(m.limit_value) + " s";
  if (m.limit == engine::LimitKind::kLines) return s + " " + std::to_string(m.limit_value) + " lines";
  return s;
}

const char* phase_text(protocol::RoomPhase p) {
  switch (p) {
    case protocol::RoomPhase::kWaiting: return "waiting";
    case protocol::RoomPhase::kCountdown: return "countdown";
    case protocol::RoomPhase::kRacing: return "racing";
    case protocol::RoomPhase::kResults: return "results";
  }
  return "?";
}

}  // namespace

bool draw_room_form(RoomForm& f, bool editable) {
  bool changed = false;
  if (!editable) ImGui::BeginDisabled();
  changed |= ImGui::InputText("Room name", &f.name);
  changed |= enum_combo("Mode", f.mode, labels::kMode);
  switch (f.mode) {
    case engine::ModeKind::kSprint:
    case engine::ModeKind::kMaster:
      changed |= int_field("Lines", f.lines, RoomForm::kMinLines, RoomForm::kMaxLines);
      break;
    case engine::ModeKind::kUltra:
    case engine::ModeKind::kContest:
      changed |= int_field("Seconds", f.seconds, RoomForm::kMinSeconds, RoomForm::kMaxSeconds, 10);
      break;
    case engine::ModeKind::kMarathon:
      changed |= ImGui::Checkbox("Variable goal (5 x level lines per level)", &f.variable_goal);
      break;
    case engine::ModeKind::kEndless:
      changed |= enum_combo("Ends after", f.endless, kEndlessLimits);
      if (f.endless == EndlessLimit::kLines) {
        changed |= int_field("Lines", f.lines, RoomForm::kMinLines, RoomForm::kMaxLines);
      }
      if (f.endless == EndlessLimit::kSeconds) {
        changed |= int_field("Seconds", f.seconds, RoomForm::kMinSeconds, RoomForm::kMaxSeconds, 10);
      }
      break;
    case engine::ModeKind::kCustom:
      if (ImGui::TreeNodeEx("Rules", ImGuiTreeNodeFlags_DefaultOpen)) {
        changed |= custom_rules(f);
        ImGui::TreePop();
      }
      break;
  }
  changed |= ImGui::SliderInt("Racers at most", &f.max_racers, 1, static_cast<int>(protocol::kMaxRacers));
  changed |= ImGui::Checkbox("Private (joined by code)", &f.is_private);
  changed |= ImGui::Checkbox("Start when everyone is ready", &f.auto_start);
  changed |= ImGui::SliderInt("Stall budget (s)", &f.stall_budget_s, 0, protocol::kMaxStallBudgetS);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "Game time a racer may send late over one race (a stalled connection) before the server removes"
        " them.\nLate time is shown in the results either way.");
  }
  if (!editable) ImGui::EndDisabled();
  return changed;
}

void draw_chat(net::Session& session, char* buffer, std::size_t size, const std::deque<std::string>& messages) {
  // The rest of the column above the input line (inside a table cell: its padding too).
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGui::BeginChild("chat", ImVec2(0, -(ImGui::GetFrameHeightWithSpacing() + style.CellPadding.y * 2 + 1)), true);
  for (const auto& c : session.chat_log()) ImGui::TextWrapped("%s: %s", c.from_name.c_str(), c.text.c_str());
  for (const auto& m : messages) ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.4f, 1.0f), "%s", m.c_str());
  if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY()) ImGui::SetScrollHereY(1.0f);
  ImGui::EndChild();
  if (ImGui::InputTextWithHint("##say", "type to chat, Enter sends", buffer, size,
                               ImGuiInputTextFlags_EnterReturnsTrue) &&
      buffer[0] != 0) {
    (void)session.chat(buffer);
    buffer[0] = 0;
    ImGui::SetKeyboardFocusHere(-1);
  }
}

ServerListAction ServerListScreen::draw(Settings& settings, bool& settings_changed,
                                        const std::deque<std::string>& messages, const MenuNav& nav) {
  ServerListAction out;
  settings_changed = false;
  if (name_[0] == 0) std::snprintf(name_, sizeof name_, "%s", settings.player_name.c_str());
  begin_full_screen("Multiplayer");
  if (ImGui::InputText("Your name", name_, sizeof name_) && name_[0] != 0) {
    settings.player_name = name_;
    settings_changed = true;
  }
  ImGui::Separator();
  ImGui::TextUnformatted("Saved servers");
  ImGui::BeginChild("servers", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 8), true);
  for (int i = 0; i < static_cast<int>(settings.servers.size()); ++i) {
    const auto& s = settings.servers[static_cast<std::size_t>(i)];
    const std::string label = s.name + "  (" + s.address + ")";
    if (ImGui::Selectable(label.c_str(), selected_ == i, ImGuiSelectableFlags_AllowDoubleClick)) {
      selected_ = i;
      std::snprintf(address_, sizeof address_, "%s", s.address.c_str());
      std::snprintf(saved_name_, sizeof saved_name_, "%s", s.name.c_str());
      if (ImGui::IsMouseDoubleClicked(0)) out.kind = ServerListAction::kConnect;
    }
  }
  ImGui::EndChild();
  ImGui::InputText("Address (host:port)", address_, sizeof address_);
  ImGui::InputText("Name on the list", saved_name_, sizeof saved_name_);
  if (ImGui::Button("Connect")) out.kind = ServerListAction::kConnect;
  default_focus();  // keyboard and pad start here: Enter (A) connects
  if (focus_connect_ && ImGui::GetTopMostPopupModal() == nullptr) {
    // The window was there before (behind "Connecting"), so the default focus above does not apply again.
    ImGuiWindow* window = ImGui::GetCurrentWindow();
    ImGui::FocusWindow(window);
    ImGui::SetFocusID(ImGui::GetItemID(), window);
    GImGui->NavDisableHighlight = false;
    focus_connect_ = false;
  }
  ImGui::SameLine();
  if (ImGui::Button("Add to list") && address_[0] != 0) {
    settings.servers.push_back({saved_name_[0] ? saved_name_ : address_, address_});
    settings_changed = true;
  }
  const bool have = selected_ >= 0 && selected_ < static_cast<int>(settings.servers.size());
  ImGui::SameLine();
  if (ImGui::Button("Save changes") && have && address_[0] != 0) {
    settings.servers[static_cast<std::size_t>(selected_)] = {saved_name_[0] ? saved_name_ : address_, address_};
    settings_changed = true;
  }
  ImGui::SameLine();
  if (ImGui::Button("Remove") && have) {
    settings.servers.erase(settings.servers.begin() + selected_);
    selected_ = -1;
    settings_changed = true;
  }
  ImGui::Separator();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  ImGui::InputInt("Port##host", &host_port_);
  host_port_ = std::clamp(host_port_, 0, 65535);
  ImGui::SameLine();
  if (ImGui::Button("Host a server and join it")) {
    out.kind = ServerListAction::kHost;
    out.port = static_cast<std::uint16_t>(host_port_);
  }
  // Below the Host row, so that the keys that reach Host (Down from Connect, then Right) stay as they were.
  if (ImGui::Checkbox("Public: list it on my directories", &settings.host_public)) settings_changed = true;
  ImGui::SameLine();
  if (ImGui::Checkbox("Found on this network (LAN)", &settings.host_lan)) settings_changed = true;
  ImGui::Separator();
  if (ImGui::Button("Browse servers (directories and LAN)")) out.kind = ServerListAction::kBrowse;
  ImGui::Separator();
  for (const auto& m : messages) ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.4f, 1.0f), "%s", m.c_str());
  if (ImGui::Button("Back") || (nav.back && !ImGui::GetIO().WantTextInput)) out.kind = ServerListAction::kBack;
  restore_default_focus();
  ImGui::End();
  if (out.kind == ServerListAction::kConnect) out.address = address_;
  return out;
}

void ServerListScreen::set_address(const std::string& address) {
  std::snprintf(address_, sizeof address_, "%s", address.c_str());
}

LobbyAction LobbyScreen::draw(net::Session& session, const std::deque<std::string>& messages, const MenuNav& nav,
                              double now_s) {
  LobbyAction out = LobbyAction::kNone;
  if (now_s - last_refresh_s_ > 2.0) {
    (void)session.list_rooms();
    last_refresh_s_ = now_s;
  }
  const std::string title = "Lobby: " + session.welcome().server_name + "###lobby";
  begin_full_screen(title.c_str());
  if (!session.welcome().motd.empty()) ImGui::TextWrapped("%s", session.welcome().motd.c_str());
  if (!begin_two_columns("lobby")) {
    ImGui::End();
    return out;
  }
  ImGui::TextUnformatted("Rooms");
  // Name and mode share what the numbers and buttons (sized to their contents) leave: nothing is clipped.
  if (ImGui::BeginTable("rooms", 6, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("mode", ImGuiTableColumnFlags_WidthStretch, 1.4f);
    for (const char* h : {"racers", "watching", "state", ""}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const auto& r : session.room_list().rooms) {
      ImGui::PushID(static_cast<int>(r.room_id));
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextWrapped("%s", r.name.c_str());
      ImGui::TableNextColumn();
      ImGui::TextWrapped("%s", mode_text(r.mode).c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%d / %d", r.racers, r.max_racers);
      ImGui::TableNextColumn();
      ImGui::Text("%u", r.spectators);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(phase_text(r.phase));
      ImGui::TableNextColumn();
      if (ImGui::SmallButton("Race")) (void)session.join_room(r.room_id, protocol::Role::kRacer);
      ImGui::SameLine();
      if (ImGui::SmallButton("Watch")) (void)session.join_room(r.room_id, protocol::Role::kSpectator);
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  if (session.room_list().rooms.empty()) ImGui::TextDisabled("no public rooms yet: create one below");
  ImGui::Separator();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  ImGui::InputText("Private room code", code_, sizeof code_, ImGuiInputTextFlags_CharsUppercase);
  ImGui::SameLine();
  if (ImGui::Button("Join") && code_[0] != 0) (void)session.join_private(code_, protocol::Role::kRacer);
  ImGui::SameLine();
  if (ImGui::Button("Watch##code") && code_[0] != 0) (void)session.join_private(code_, protocol::Role::kSpectator);
  ImGui::Separator();
  ImGui::TextUnformatted("New room");
  if (draw_room_form(form_, true)) form_error_.clear();
  ImGui::RadioButton("I race", &creator_role_, 0);
  ImGui::SameLine();
  ImGui::RadioButton("I watch", &creator_role_, 1);
  if (ImGui::Button("Create room")) {
    form_error_.clear();
    if (auto settings = form_.to_settings(); settings.ok()) {
      (void)session.create_room(settings.value(),
                                creator_role_ == 0 ? protocol::Role::kRacer : protocol::Role::kSpectator);
    } else {
      form_error_ = settings.error();
    }
  }
  if (session.room_list().rooms.empty()) ImGui::SetItemDefaultFocus();
  if (!form_error_.empty()) ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "%s", form_error_.c_str());
  ImGui::Separator();
  if (ImGui::Button("Replays on this server")) out = LobbyAction::kReplays;
  ImGui::SameLine();
  if (ImGui::Button("Contest ladder")) out = LobbyAction::kLadder;
  ImGui::SameLine();
  if (ImGui::Button("Disconnect") || (nav.back && !ImGui::GetIO().WantTextInput)) out = LobbyAction::kDisconnect;
  ImGui::TableNextColumn();
  draw_chat(session, chat_, sizeof chat_, messages);
  ImGui::EndTable();
  ImGui::End();
  return out;
}

void RoomScreen::draw(net::Session& session, const std::deque<std::string>& messages, const MenuNav& nav) {
  const auto& room = *session.room();
  const bool host = room.host_id == session.player_id();
  // The host's unsent edits stay until the room's settings change under them.
  if (form_room_ != room.room_id || !host || !(shown_ == room.settings)) {
    form_.from_settings(room.settings);
    form_room_ = room.room_id;
    shown_ = room.settings;
    form_error_.clear();
  }
  const std::string title = "Room: " + room.settings.name + "###room";
  begin_full_screen(title.c_str());
  if (!begin_two_columns("room")) {
    ImGui::End();
    return;
  }
  if (!room.code.empty()) ImGui::Text("Private room, code %s", room.code.c_str());
  ImGui::Text("State: %s", phase_text(room.phase));
  const protocol::RoomMember* me = nullptr;
  for (const auto& m : room.members) {
    if (m.player_id == session.player_id()) me = &m;
  }
  // The buttons above the members: they stay where they are as players come and go.
  const bool waiting = room.phase == protocol::RoomPhase::kWaiting || room.phase == protocol::RoomPhase::kResults;
  if (me && waiting) {
    if (me->role == protocol::Role::kRacer) {
      const bool ready = ImGui::Button(me->ready ? "Not ready" : "Ready");
      default_focus();  // keyboard and pad start here
      if (ready || default_item_accepted(nav)) (void)session.set_ready(!me->ready);
      ImGui::SameLine();
      if (ImGui::Button("Watch instead")) (void)session.set_role(protocol::Role::kSpectator);
    } else if (ImGui::Button("Race instead")) {
      (void)session.set_role(protocol::Role::kRacer);
    }
    if (host) {
      ImGui::SameLine();
      if (ImGui::Button("Start")) (void)session.start_race();
    }
  }
  // Eight members tall whoever is in (more scroll): the settings and Leave below do not move either.
  const ImVec2 members_size(0, ImGui::GetFrameHeightWithSpacing() * 9);
  if (ImGui::BeginTable("members", 4, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY,
                        members_size)) {
    ImGui::TableSetupScrollFreeze(0, 1);  // the header stays
    for (const char* h : {"player", "role", "ready", ""}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const auto& m : room.members) {
      ImGui::PushID(static_cast<int>(m.player_id));
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%s%s", m.name.c_str(), m.player_id == room.host_id ? " (host)" : "");
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(m.role == protocol::Role::kRacer ? "racer" : "spectator");
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(m.role == protocol::Role::kRacer ? (m.ready ? "ready" : "not ready") : "");
      ImGui::TableNextColumn();
      if (host && m.player_id != session.player_id() && ImGui::SmallButton("Kick")) (void)session.kick(m.player_id);
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  ImGui::Separator();
  ImGui::TextUnformatted(host ? "Settings (you are the host)" : "Settings");
  if (draw_room_form(form_, host && waiting)) form_error_.clear();
  if (host && waiting && ImGui::Button("Apply settings")) {
    form_error_.clear();
    if (auto settings = form_.to_settings(); settings.ok()) {
      (void)session.change_settings(settings.value());
    } else {
      form_error_ = settings.error();
    }
  }
  if (!form_error_.empty()) ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "%s", form_error_.c_str());
  ImGui::Separator();
  if (ImGui::Button("Leave room") || (nav.back && !ImGui::GetIO().WantTextInput)) (void)session.leave_room();
  ImGui::TableNextColumn();
  draw_chat(session, chat_, sizeof chat_, messages);
  ImGui::EndTable();
  restore_default_focus();
  ImGui::End();
}

}  // namespace sr::client
