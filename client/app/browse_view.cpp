// The server browser screen (browse_view.h).
#include "client/app/browse_view.h"

#include <imgui.h>
#include <imgui_internal.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>

#include "client/app/app.h"
#include "client/app/net_view.h"
#include "client/ui/menu.h"
#include "client/web/http_get.h"
#include "common/protocol/messages.h"
#include "net/discovery/server_info.h"
#include "net/discovery/server_query.h"

namespace sr::client {
namespace {

constexpr std::uint16_t kDefaultPort = 7878;
constexpr double kAnswerWaitS = 3.0;  // after a refresh (or a directory's list), frames are drawn this long for pings

// The columns, in the table's order, and what each sorts by (none: the marks column).
struct Column {
  const char* header;
  std::optional<BrowserColumn> sorts;
};
constexpr Column kColumns[] = {
    {"", std::nullopt},
    {"Name", BrowserColumn::kName},
    {"Players", BrowserColumn::kPlayers},
    {"Rooms", BrowserColumn::kRooms},
    {"Modes", BrowserColumn::kModes},
    {"Ping", BrowserColumn::kPing},
    {"Version", BrowserColumn::kVersion},
    {"Address", BrowserColumn::kAddress},
};
constexpr int kColumnCount = static_cast<int>(std::size(kColumns));

std::string marks(const BrowserEntry& e) {
  std::string m;
  if (e.favourite) m += "*";
  if (e.recent) m += "r";
  if (e.on_lan) m += "L";
  return m;
}

}  // namespace

BrowseView::BrowseView(App& app) : ScreenView(app) {}
BrowseView::~BrowseView() = default;

void BrowseView::open() {
  app_.show(Screen::kBrowse);
  focus_filter_ = true;
  refresh();
}

void BrowseView::refresh() {
  const Settings& s = app_.settings();
  browser_.clear_answers();
  std::vector<std::pair<std::string, std::string>> saved;
  for (const auto& server : s.servers) saved.emplace_back(server.name, server.address);
  browser_.mark_saved(saved, s.recent_servers, kDefaultPort);
  status_.clear();

  query_ = std::make_unique<net::ServerQuery>();
  if (auto opened = query_->open(); !opened) {
    status_.push_back("cannot ask servers: " + opened.error());
    query_.reset();
  } else {
    query_->probe_lan();
    for (const auto& e : browser_.entries()) ask(e.host, e.port);
  }

  fetches_.clear();
  for (const auto& url : s.directories) {
    Fetch f;
    f.url = url;
    f.result = std::async(std::launch::async, [url]() -> sr::Result<std::vector<net::ListedServer>, std::string> {
      auto parsed = protocol::parse_web_url(url + "/api/servers");
      if (!parsed) return "not a directory address (" + parsed.error() + ")";
      HttpGetLimits limits;
      limits.timeout = std::chrono::milliseconds(5000);
      limits.max_body_bytes = 4u << 20;
      auto body = http_get(parsed.value(), limits);
      if (!body) return body.error().message;
      return net::parse_directory_servers(
          std::string_view(reinterpret_cast<const char*>(body.value().data()), body.value().size()));
    });
    fetches_.push_back(std::move(f));
  }
  if (s.directories.empty()) status_.push_back("no directory set: add one below to list public servers");
  answers_until_s_ = ImGui::GetTime() + kAnswerWaitS;
  spdlog::info("browser: refreshing ({} directories, {} saved or recent servers)", s.directories.size(),
               browser_.entries().size());
}

void BrowseView::poll() {
  for (auto& f : fetches_) {
    if (!f.result.valid() || f.result.wait_for(std::chrono::seconds(0)) != std::future_status::ready) continue;
    auto got = f.result.get();
    if (!got) {
      status_.push_back(f.url + ": " + got.error());
      spdlog::warn("browser: directory {}: {}", f.url, got.error());
      continue;
    }
    status_.push_back(f.url + ": " + std::to_string(got.value().size()) + " servers");
    spdlog::info("browser: directory {} lists {} servers", f.url, got.value().size());
    for (const auto& listed : got.value()) {
      browser_.listed(listed.address, listed.info.port, listed.info);
      ask(listed.address, listed.info.port);
    }
    answers_until_s_ = ImGui::GetTime() + kAnswerWaitS;
  }
  if (!query_ || query_->poll() == 0) return;
  for (const net::FoundServer& s : query_->servers()) {
    const bool first = !browser_.at(s.address, s.port).ping_ms;
    browser_.answered(s.address, s.port, s.info, static_cast<double>(s.ping_us) / 1000.0, s.from_lan);
    if (first) {
      spdlog::info("browser: {} ({}:{}) answered in {:.1f} ms{}", s.info.name, s.address, s.port,
                   static_cast<double>(s.ping_us) / 1000.0, s.from_lan ? " on this network" : "");
    }
  }
  query_->clear();
}

void BrowseView::ask(const std::string& host, std::uint16_t port) {
  if (!query_) return;
  if (auto asked = query_->query(host, port); !asked) status_.push_back(host + ": " + asked.error());
}

void BrowseView::join(const BrowserEntry& entry) {
  if (const std::string why = entry.cannot_join(protocol::kProtocolVersion); !why.empty()) {
    status_.push_back("cannot join " + entry.shown_name() + ": " + why);
    return;
  }
  spdlog::info("browser: joining {} ({})", entry.shown_name(), entry.address());
  query_.reset();
  app_.view<NetView>(Screen::kNet).join(entry.address());
}

void BrowseView::toggle_saved(const BrowserEntry& entry) {
  auto& servers = app_.settings().servers;
  const std::string address = entry.address();
  if (std::erase_if(servers, [&](const SavedServer& s) {
        auto hp = net::split_host_port(s.address, kDefaultPort);
        return hp && hp->host == entry.host && hp->port == entry.port;
      }) == 0) {
    if (servers.size() >= 32) {
      status_.push_back("the saved list is full (32 servers)");
      return;
    }
    servers.push_back({entry.shown_name().substr(0, 32), address});
  }
  app_.apply_settings();
  std::vector<std::pair<std::string, std::string>> saved;
  for (const auto& server : servers) saved.emplace_back(server.name, server.address);
  browser_.mark_saved(saved, app_.settings().recent_servers, kDefaultPort);
}

void BrowseView::directories() {
  Settings& s = app_.settings();
  ImGui::Separator();
  ImGui::TextUnformatted("Directories");
  for (std::size_t i = 0; i < s.directories.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::SmallButton("Remove")) {
      s.directories.erase(s.directories.begin() + static_cast<std::ptrdiff_t>(i));
      app_.apply_settings();
      ImGui::PopID();
      break;
    }
    ImGui::SameLine();
    ImGui::TextUnformatted(s.directories[i].c_str());
    ImGui::PopID();
  }
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 18);
  ImGui::InputTextWithHint("##directory", "http://host:port", directory_, sizeof directory_);
  ImGui::SameLine();
  if (ImGui::Button("Add directory") && directory_[0] != 0) {
    std::string url = directory_;
    while (!url.empty() && url.back() == '/') url.pop_back();
    if (auto parsed = protocol::parse_web_url(url + "/api/servers"); !parsed) {
      status_.push_back("\"" + url + "\" is not a directory address: " + parsed.error());
    } else if (s.directories.size() >= kMaxDirectories) {
      status_.push_back("at most " + std::to_string(kMaxDirectories) + " directories");
    } else if (std::find(s.directories.begin(), s.directories.end(), url) == s.directories.end()) {
      s.directories.push_back(url);
      app_.apply_settings();
      directory_[0] = 0;
      refresh();
    }
  }
}

Activity BrowseView::activity() const {
  return ImGui::GetTime() < answers_until_s_ ? Activity::kAnimating : Activity::kIdle;
}

void BrowseView::table(const MenuNav& /*nav*/) {
  constexpr ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_Sortable |
                                    ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit;
  const float height = ImGui::GetContentRegionAvail().y - ImGui::GetTextLineHeightWithSpacing() * 9;
  if (!ImGui::BeginTable("servers", kColumnCount, flags, ImVec2(0, std::max(height, 120.0f)))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const Column& c : kColumns) {
    ImGuiTableColumnFlags f = c.sorts ? ImGuiTableColumnFlags_None : ImGuiTableColumnFlags_NoSort;
    if (c.sorts == BrowserColumn::kPing) f |= ImGuiTableColumnFlags_DefaultSort;
    if (c.sorts == BrowserColumn::kName || c.sorts == BrowserColumn::kModes) f |= ImGuiTableColumnFlags_WidthStretch;
    ImGui::TableSetupColumn(c.header, f);
  }
  ImGui::TableHeadersRow();
  if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs(); specs != nullptr && specs->SpecsCount > 0) {
    const ImGuiTableColumnSortSpecs& spec = specs->Specs[0];
    if (const auto column = kColumns[spec.ColumnIndex].sorts) view_.sort = *column;
    view_.descending = spec.SortDirection == ImGuiSortDirection_Descending;
    specs->SpecsDirty = false;
  }
  const BrowserEntry* to_join = nullptr;
  for (const BrowserEntry* e : browser_.rows(view_)) {
    const std::string address = e->address();
    ImGui::PushID(address.c_str());
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const std::string label = marks(*e) + "##row";
    if (ImGui::Selectable(label.c_str(), current_ == address,
                          ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowDoubleClick)) {
      current_ = address;
      // Enter (or A) on a row, or a double click: join. A single click only selects.
      if (!ImGui::IsMouseClicked(0) || ImGui::IsMouseDoubleClicked(0)) to_join = e;
    }
    if (focus_first_row_) {
      ImGui::SetFocusID(ImGui::GetItemID(), ImGui::GetCurrentWindow());
      GImGui->NavDisableHighlight = false;
      focus_first_row_ = false;
      current_ = address;
    }
    if (ImGui::IsItemFocused()) current_ = address;
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(e->shown_name().c_str());
    ImGui::TableNextColumn();
    if (e->facts) {
      ImGui::Text("%u/%u", e->facts->players, e->facts->capacity);
    }
    ImGui::TableNextColumn();
    if (e->facts) ImGui::Text("%zu%s", e->facts->rooms.size(), e->facts->racing ? " racing" : "");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(e->modes().c_str());
    ImGui::TableNextColumn();
    if (e->ping_ms) {
      ImGui::Text("%.0f ms", *e->ping_ms);
    } else {
      ImGui::TextDisabled("-");
    }
    ImGui::TableNextColumn();
    if (e->facts) {
      if (const std::string why = e->cannot_join(protocol::kProtocolVersion); !why.empty()) {
        ImGui::TextColored(ImVec4(1.0f, 0.5f, 0.4f, 1.0f), "%s: cannot join", e->facts->version.c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", why.c_str());
      } else {
        ImGui::TextUnformatted(e->facts->version.c_str());
      }
    }
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(address.c_str());
    ImGui::PopID();
  }
  ImGui::EndTable();
  if (to_join != nullptr) join(*to_join);
}

void BrowseView::ui(double /*now_s*/, const MenuNav& nav) {
  poll();
  begin_full_screen("Browse servers");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
  // The keyboard starts in the filter: type to narrow the list, Enter goes to its first row (Enter there joins).
  if (focus_filter_) {
    ImGui::SetKeyboardFocusHere();
    focus_filter_ = false;
  }
  if (ImGui::InputTextWithHint("##filter", "filter: name, mode, room, address", filter_, sizeof filter_,
                               ImGuiInputTextFlags_EnterReturnsTrue)) {
    focus_first_row_ = true;
  }
  view_.filter = filter_;
  ImGui::SameLine();
  ImGui::Checkbox("Has players", &view_.has_players);
  ImGui::SameLine();
  ImGui::Checkbox("Saved and recent only", &view_.saved_only);
  ImGui::SameLine();
  if (ImGui::Button("Refresh")) refresh();
  table(nav);
  const BrowserEntry* current = nullptr;
  for (const auto& e : browser_.entries()) {
    if (e.address() == current_) current = &e;
  }
  ImGui::BeginDisabled(current == nullptr);
  if (ImGui::Button("Join")) join(*current);
  ImGui::SameLine();
  if (ImGui::Button(current != nullptr && current->favourite ? "Remove from saved" : "Save to my list")) {
    toggle_saved(*current);
  }
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::TextDisabled("* saved  r recent  L on this network");
  ImGui::Separator();
  for (const auto& line : status_) ImGui::TextWrapped("%s", line.c_str());
  directories();
  if (ImGui::Button("Back") || (nav.back && !ImGui::GetIO().WantTextInput)) {
    query_.reset();
    app_.show(Screen::kNet);
  }
  ImGui::End();
}

}  // namespace sr::client
