#include "client/ui/net_screens.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace sr::client {
namespace {

constexpr const char* kModes[] = {"sprint", "ultra", "marathon", "master", "contest"};

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

void begin_screen(const char* title) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.05f, io.DisplaySize.y * 0.05f), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x * 0.9f, io.DisplaySize.y * 0.9f), ImGuiCond_Always);
  ImGui::Begin(title, nullptr, ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse);
}

// True when the form changed.
bool room_form(RoomForm& f, bool editable) {
  bool changed = false;
  if (!editable) ImGui::BeginDisabled();
  changed |= ImGui::InputText("Room name", f.name, sizeof f.name);
  changed |= ImGui::Combo("Mode", &f.mode, kModes, IM_ARRAYSIZE(kModes));
  if (f.mode == 0 || f.mode == 3) changed |= ImGui::InputInt("Lines", &f.lines);
  if (f.mode == 1 || f.mode == 4) changed |= ImGui::InputInt("Seconds", &f.seconds);
  changed |= ImGui::SliderInt("Racers at most", &f.max_racers, 1, 16);
  changed |= ImGui::Checkbox("Private (joined by code)", &f.is_private);
  changed |= ImGui::Checkbox("Start when everyone is ready", &f.auto_start);
  if (!editable) ImGui::EndDisabled();
  f.lines = std::clamp(f.lines, 1, 10'000);
  f.seconds = std::clamp(f.seconds, 10, 3600);
  return changed;
}

}  // namespace

protocol::RoomSettings RoomForm::to_settings() const {
  protocol::RoomSettings s;
  s.name = name;
  switch (mode) {
    case 1: s.config = engine::make_ultra(seconds); break;
    case 2: s.config = engine::make_marathon(); break;
    case 3: s.config = engine::make_master(lines); break;
    case 4: s.config = engine::make_contest(); break;
    default: s.config = engine::make_sprint(lines); break;
  }
  s.max_racers = static_cast<std::uint8_t>(max_racers);
  s.is_private = is_private;
  s.auto_start = auto_start;
  return s;
}

void RoomForm::from_settings(const protocol::RoomSettings& s) {
  std::snprintf(name, sizeof name, "%s", s.name.c_str());
  switch (s.config.mode) {
    case engine::ModeKind::kUltra: mode = 1; break;
    case engine::ModeKind::kMarathon: mode = 2; break;
    case engine::ModeKind::kMaster: mode = 3; break;
    case engine::ModeKind::kContest: mode = 4; break;
    default: mode = 0; break;
  }
  if (s.config.limit == engine::LimitKind::kLines) lines = static_cast<int>(s.config.limit_value);
  if (s.config.limit == engine::LimitKind::kTime) seconds = static_cast<int>(s.config.limit_value);
  max_racers = s.max_racers;
  is_private = s.is_private;
  auto_start = s.auto_start;
}

void draw_chat(net::Session& session, char* buffer, std::size_t size, const std::deque<std::string>& messages) {
  ImGui::BeginChild("chat", ImVec2(0, -ImGui::GetFrameHeightWithSpacing()), true);
  for (const auto& c : session.chat_log()) ImGui::TextWrapped("%s: %s", c.from_name.c_str(), c.text.c_str());
  for (const auto& m : messages) ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.4f, 1.0f), "%s", m.c_str());
  if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY()) ImGui::SetScrollHereY(1.0f);
  ImGui::EndChild();
  if (ImGui::InputText("##say", buffer, size, ImGuiInputTextFlags_EnterReturnsTrue) && buffer[0] != 0) {
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
  begin_screen("Multiplayer");
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
  ImGui::Separator();
  for (const auto& m : messages) ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.4f, 1.0f), "%s", m.c_str());
  if (ImGui::Button("Back") || (nav.back && !ImGui::GetIO().WantTextInput)) out.kind = ServerListAction::kBack;
  ImGui::End();
  if (out.kind == ServerListAction::kConnect) out.address = address_;
  return out;
}

LobbyAction LobbyScreen::draw(net::Session& session, const std::deque<std::string>& messages, const MenuNav& nav,
                              double now_s) {
  LobbyAction out = LobbyAction::kNone;
  if (now_s - last_refresh_s_ > 2.0) {
    (void)session.list_rooms();
    last_refresh_s_ = now_s;
  }
  const std::string title = "Lobby: " + session.welcome().server_name + "###lobby";
  begin_screen(title.c_str());
  if (!session.welcome().motd.empty()) ImGui::TextWrapped("%s", session.welcome().motd.c_str());
  ImGui::Columns(2, "lobby", true);
  ImGui::TextUnformatted("Rooms");
  if (ImGui::BeginTable("rooms", 6, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) {
    for (const char* h : {"name", "mode", "racers", "watching", "state", ""}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const auto& r : session.room_list().rooms) {
      ImGui::PushID(static_cast<int>(r.room_id));
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.name.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(mode_text(r.mode).c_str());
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
  ImGui::Separator();
  ImGui::InputText("Private room code", code_, sizeof code_);
  ImGui::SameLine();
  if (ImGui::Button("Join") && code_[0] != 0) (void)session.join_private(code_);
  ImGui::Separator();
  ImGui::TextUnformatted("New room");
  room_form(form_, true);
  if (ImGui::Button("Create room")) (void)session.create_room(form_.to_settings());
  ImGui::SameLine();
  if (ImGui::Button("Disconnect") || (nav.back && !ImGui::GetIO().WantTextInput)) out = LobbyAction::kDisconnect;
  ImGui::NextColumn();
  draw_chat(session, chat_, sizeof chat_, messages);
  ImGui::Columns(1);
  ImGui::End();
  return out;
}

void RoomScreen::draw(net::Session& session, const std::deque<std::string>& messages, const MenuNav& nav) {
  const auto& room = *session.room();
  const bool host = room.host_id == session.player_id();
  if (form_room_ != room.room_id || !host) {
    form_.from_settings(room.settings);
    form_room_ = room.room_id;
  }
  const std::string title = "Room: " + room.settings.name + "###room";
  begin_screen(title.c_str());
  ImGui::Columns(2, "room", true);
  if (!room.code.empty()) ImGui::Text("Private room, code %s", room.code.c_str());
  ImGui::Text("State: %s", phase_text(room.phase));
  const protocol::RoomMember* me = nullptr;
  if (ImGui::BeginTable("members", 4, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) {
    for (const char* h : {"player", "role", "ready", ""}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const auto& m : room.members) {
      if (m.player_id == session.player_id()) me = &m;
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
  const bool waiting = room.phase == protocol::RoomPhase::kWaiting || room.phase == protocol::RoomPhase::kResults;
  if (me && waiting) {
    if (me->role == protocol::Role::kRacer) {
      if (ImGui::Button(me->ready ? "Not ready" : "Ready")) (void)session.set_ready(!me->ready);
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
  ImGui::Separator();
  ImGui::TextUnformatted(host ? "Settings (you are the host)" : "Settings");
  room_form(form_, host && waiting);
  if (host && waiting && ImGui::Button("Apply settings")) (void)session.change_settings(form_.to_settings());
  ImGui::Separator();
  if (ImGui::Button("Leave room") || (nav.back && !ImGui::GetIO().WantTextInput)) (void)session.leave_room();
  ImGui::NextColumn();
  draw_chat(session, chat_, sizeof chat_, messages);
  ImGui::Columns(1);
  ImGui::End();
}

}  // namespace sr::client
