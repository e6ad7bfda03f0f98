#include "server/web/live_rooms.h"

#include <algorithm>
#include <utility>

#include "common/replay/codec.h"
#include "server/web/web_json.h"

namespace sr::server::web {
namespace {

using I64 = std::int64_t;

// JSON from elsewhere (the replay codec, which indents it) on one line. A raw newline occurs in JSON only between
// tokens (strings escape theirs), so it goes, with the indentation after it.
std::string compact(const std::string& json) {
  std::string out;
  out.reserve(json.size());
  bool indent = false;
  for (const char c : json) {
    if (c == '\n') {
      indent = true;
      continue;
    }
    if (indent && c == ' ') continue;
    indent = false;
    out += c;
  }
  return out;
}

// The race as a replay in its JSON form (common/replay/FORMAT.md) with every racer and no input yet: what the page's
// engine opens to play the relayed inputs (web/js/engine.js, openLive).
std::string start_replay_json(const protocol::CountdownStart& m, const std::string& place, std::int64_t unix_ms) {
  replay::Replay r;
  r.rules_version = engine::kRulesVersion;
  r.created_unix_ms = std::clamp<std::int64_t>(unix_ms, 0, replay::kMaxCreatedUnixMs);
  r.place = place.substr(0, replay::kMaxPlaceBytes);
  r.config = m.config;
  r.seed = m.seed;
  for (const protocol::RaceEntrant& e : m.racers) {
    replay::Racer racer;
    racer.name = e.name;
    racer.handling = e.handling;
    r.racers.push_back(std::move(racer));
  }
  return compact(replay::encode_json(r));
}

std::string race_json(const protocol::CountdownStart& m, const std::string& place, std::int64_t unix_ms) {
  JsonWriter w = json_writer();
  w.begin_object();
  w.key("race_id").value(static_cast<I64>(m.race_id));
  w.key("countdown_us").value(I64{m.countdown_us});
  w.key("racers").begin_array();
  for (const protocol::RaceEntrant& e : m.racers) {
    w.begin_object();
    w.key("player_id").value(static_cast<I64>(e.player_id));
    w.key("name").value(e.name);
    w.end_object();
  }
  w.end_array();
  // The replay's JSON as a string, not an object: its 64-bit seed must reach the engine exactly, and JavaScript's
  // JSON.parse would round it to a double.
  w.key("replay").value(start_replay_json(m, place, unix_ms));
  w.end_object();
  return w.text();
}

std::string inputs_json(const protocol::RacerInputs& m) {
  JsonWriter w = json_writer();
  w.begin_object();
  w.key("race_id").value(static_cast<I64>(m.race_id));
  w.key("player_id").value(static_cast<I64>(m.player_id));
  w.key("first_seq").value(static_cast<I64>(m.first_seq));
  w.key("now_us").value(I64{m.now_us});
  w.key("changes").begin_array();
  for (const engine::InputChange& c : m.changes) {
    w.begin_array().value(I64{c.time_us}).value(static_cast<I64>(c.buttons)).end_array();
  }
  w.end_array();
  w.end_object();
  return w.text();
}

std::string stats_json(const protocol::LiveStats& m) {
  JsonWriter w = json_writer();
  w.begin_object();
  w.key("race_id").value(static_cast<I64>(m.race_id));
  w.key("race_time_us").value(I64{m.race_time_us});
  w.key("racers").begin_array();
  for (const protocol::RacerLive& r : m.racers) {
    w.begin_object();
    w.key("player_id").value(static_cast<I64>(r.player_id));
    w.key("status").value(racer_status_name(r.status));
    w.key("place").value(static_cast<I64>(r.place));
    w.key("time_us").value(I64{r.time_us});
    w.key("lines").value(I64{r.lines});
    w.key("lines_left").value(I64{r.lines_left});
    w.key("score").value(I64{r.score});
    w.key("pieces").value(I64{r.pieces});
    w.key("pps_x100").value(static_cast<I64>(r.pps_x100));
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.text();
}

std::string ended_json(const protocol::RacerEnded& m) {
  JsonWriter w = json_writer();
  w.begin_object();
  w.key("race_id").value(static_cast<I64>(m.race_id));
  w.key("player_id").value(static_cast<I64>(m.player_id));
  w.key("status").value(racer_status_name(m.status));
  w.key("time_us").value(I64{m.time_us});
  w.key("place").value(static_cast<I64>(m.place));
  w.key("reason").value(m.reason);
  w.end_object();
  return w.text();
}

std::string results_json(const protocol::RaceResults& m) {
  JsonWriter w = json_writer();
  w.begin_object();
  w.key("race_id").value(static_cast<I64>(m.race_id));
  w.key("reason").value(race_end_name(m.reason));
  w.key("duration_us").value(I64{m.duration_us});
  w.key("racers").begin_array();
  for (const protocol::RacerResult& r : m.racers) {
    w.begin_object();
    w.key("player_id").value(static_cast<I64>(r.player_id));
    w.key("name").value(r.name);
    w.key("place").value(static_cast<I64>(r.place));
    w.key("status").value(racer_status_name(r.status));
    w.key("time_us").value(I64{r.time_us});
    w.key("lines").value(I64{r.lines});
    w.key("score").value(I64{r.score});
    w.key("pieces").value(I64{r.pieces});
    w.key("pps_x100").value(static_cast<I64>(r.pps_x100));
    w.key("kpp_x100").value(static_cast<I64>(r.kpp_x100));
    w.key("unverified_us").value(I64{r.unverified_us});
    w.key("reconnects").value(static_cast<I64>(r.reconnects));
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.text();
}

std::string replay_json(std::uint32_t race_id, std::optional<std::uint64_t> game_id, const std::string& reason) {
  JsonWriter w = json_writer();
  w.begin_object();
  w.key("race_id").value(static_cast<I64>(race_id));
  w.key("game_id");
  if (game_id) {
    w.value(game_id_text(*game_id));
  } else {
    w.null();
  }
  w.key("page");
  if (game_id) {
    w.value("games/" + game_id_text(*game_id));
  } else {
    w.null();
  }
  w.key("reason").value(reason);
  w.end_object();
  return w.text();
}

std::string text_json(const char* key, const std::string& text, std::uint32_t race_id = 0) {
  JsonWriter w = json_writer();
  w.begin_object();
  if (race_id != 0) w.key("race_id").value(static_cast<I64>(race_id));
  w.key(key).value(text);
  w.end_object();
  return w.text();
}

std::string room_json(const protocol::RoomInfo& info) {
  JsonWriter w = json_writer();
  put_room(w, info);
  return w.text();
}

}  // namespace

Frame make_frame(const char* event, const std::string& json) {
  std::string text;
  text.reserve(json.size() + 32);
  text += "event: ";
  text += event;
  text += "\ndata: ";
  text += json;
  text += "\n\n";
  return std::make_shared<const std::string>(std::move(text));
}

std::shared_ptr<RoomFeed>& LiveRooms::feed_of(RoomId id) {
  std::shared_ptr<RoomFeed>& feed = rooms_[id];
  if (!feed) {
    feed = std::make_shared<RoomFeed>();
    feed->id = id;
  }
  return feed;
}

std::shared_ptr<RoomFeed> LiveRooms::room(RoomId id) const {
  const auto it = rooms_.find(id);
  return it == rooms_.end() ? nullptr : it->second;
}

void LiveRooms::append(RoomFeed& feed, Frame frame) {
  RaceFeed& race = *feed.race;
  // Only inputs are dropped from a race that is cut: its endings, results and replay link always get through.
  const bool ending = frame->rfind("event: inputs\n", 0) != 0;
  if (race.cut && !ending) return;
  if (!race.cut &&
      (race.bytes + frame->size() > limits_.max_race_feed_bytes || bytes_ + frame->size() > limits_.max_feed_bytes)) {
    race.cut = true;
    Frame cut = make_frame("cut", text_json("reason",
                                            "this race is too long to follow live; its replay will be linked "
                                            "when it ends",
                                            race.race_id));
    race.bytes += cut->size();
    bytes_ += cut->size();
    race.frames.push_back(std::move(cut));
    if (!ending) return;
  }
  race.bytes += frame->size();
  bytes_ += frame->size();
  race.frames.push_back(std::move(frame));
}

void LiveRooms::close(RoomId id, const char* reason) {
  const auto it = rooms_.find(id);
  if (it == rooms_.end()) return;
  RoomFeed& feed = *it->second;
  if (feed.race) bytes_ -= feed.race->bytes;
  feed.closed = make_frame("closed", text_json("reason", reason));
  touched_.push_back(id);
  rooms_.erase(it);
}

void LiveRooms::on_message(RoomFeed& feed, const protocol::Message& message) {
  // Frames about race `race_id`: the current race, or nothing (a race this side never saw start).
  const auto current = [&feed](std::uint32_t race_id) { return feed.race && feed.race->race_id == race_id; };
  std::visit(
      [&](const auto& m) {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, protocol::RoomUpdate>) {
          feed.info = m.room;
          feed.info->code.clear();
          feed.room = make_frame("room", room_json(*feed.info));
          ++feed.room_version;
        } else if constexpr (std::is_same_v<T, protocol::CountdownStart>) {
          if (feed.race) bytes_ -= feed.race->bytes;
          feed.race = std::make_shared<RaceFeed>();
          feed.race->race_id = m.race_id;
          const std::string place = lobby_ ? lobby_->server_name : std::string("stackrace");
          append(feed, make_frame("race", race_json(m, place, lobby_ ? lobby_->unix_ms : 0)));
          feed.stats = nullptr;
          ++feed.stats_version;
        } else if constexpr (std::is_same_v<T, protocol::RaceStart>) {
          if (current(m.race_id)) {
            append(feed, make_frame("start", "{\"race_id\":" + std::to_string(m.race_id) + "}"));
          }
        } else if constexpr (std::is_same_v<T, protocol::RacerInputs>) {
          if (current(m.race_id)) append(feed, make_frame("inputs", inputs_json(m)));
        } else if constexpr (std::is_same_v<T, protocol::LiveStats>) {
          if (current(m.race_id)) {
            feed.stats = make_frame("stats", stats_json(m));
            ++feed.stats_version;
          }
        } else if constexpr (std::is_same_v<T, protocol::RacerEnded>) {
          if (current(m.race_id)) append(feed, make_frame("ended", ended_json(m)));
        } else if constexpr (std::is_same_v<T, protocol::RaceResults>) {
          if (current(m.race_id)) append(feed, make_frame("results", results_json(m)));
        } else if constexpr (std::is_same_v<T, protocol::ReplayStored>) {
          if (current(m.race_id)) append(feed, make_frame("replay", replay_json(m.race_id, m.game_id, "")));
        } else if constexpr (std::is_same_v<T, protocol::ReplayNotStored>) {
          if (current(m.race_id)) append(feed, make_frame("replay", replay_json(m.race_id, std::nullopt, m.reason)));
        } else if constexpr (std::is_same_v<T, protocol::Chat>) {
          JsonWriter w = json_writer();
          w.begin_object();
          w.key("from").value(m.from_name);
          w.key("text").value(m.text);
          w.end_object();
          feed.chat.push_back(make_frame("chat", w.text()));
          ++feed.chat_count;
          if (feed.chat.size() > kChatKept) feed.chat.pop_front();
        }
      },
      message);
}

std::vector<RoomId> LiveRooms::apply(LiveTap::Batch batch) {
  touched_.clear();
  if (batch.lobby) lobby_ = std::move(batch.lobby);
  for (const LiveTap::RoomMessage& m : batch.messages) {
    if (m.is_private) {
      close(m.room, "this room is private now");
      continue;
    }
    std::shared_ptr<RoomFeed>& feed = feed_of(m.room);
    feed->last_seq = m.seq;
    on_message(*feed, m.message);
    touched_.push_back(m.room);
  }
  if (batch.overflowed) {
    // Some messages were lost: no room's race can be followed exactly any more. Their watchers are told (the page
    // reconnects and catches up from the next race on).
    std::vector<RoomId> ids;
    for (const auto& [id, feed] : rooms_) ids.push_back(id);
    for (const RoomId id : ids) close(id, "the live feed fell behind; reload the page");
  }
  if (batch.lobby) {
    const LobbySnapshot& lobby = *lobby_;
    std::vector<RoomId> gone;
    for (const auto& [id, feed] : rooms_) {
      const bool listed = std::any_of(lobby.rooms.begin(), lobby.rooms.end(),
                                      [id = id](const protocol::RoomInfo& r) { return r.room_id == id; });
      if (!listed && feed->last_seq <= lobby.tap_seq) gone.push_back(id);
    }
    for (const RoomId id : gone) close(id, "the room has closed");
    for (const protocol::RoomInfo& info : lobby.rooms) {
      std::shared_ptr<RoomFeed>& feed = feed_of(info.room_id);
      // The snapshot may be older than the room's own messages: it only fills in a room not heard from yet.
      if (!feed->info) {
        feed->info = info;
        feed->info->code.clear();
        feed->room = make_frame("room", room_json(*feed->info));
        ++feed->room_version;
        touched_.push_back(info.room_id);
      }
    }
  }
  std::sort(touched_.begin(), touched_.end());
  touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
  return touched_;
}

Watcher LiveRooms::watch(std::shared_ptr<RoomFeed> feed) {
  Watcher w;
  w.race = feed->race;
  w.chat_count = feed->chat_count - std::min<std::uint64_t>(feed->chat_count, feed->chat.size());
  w.feed = std::move(feed);
  return w;
}

void LiveRooms::next_frames(Watcher& w, std::vector<Frame>& out, std::size_t max_bytes) {
  RoomFeed& feed = *w.feed;
  std::size_t bytes = 0;
  const auto add = [&](const Frame& f) {
    bytes += f->size();
    out.push_back(f);
  };
  const auto room_for_more = [&] { return bytes < max_bytes; };
  if (w.room_version < feed.room_version && feed.room) {
    add(feed.room);
    w.room_version = feed.room_version;
  }
  // An old race is sent to its end before the next one starts.
  if (w.race != feed.race && (!w.race || w.next_frame >= w.race->frames.size())) {
    w.race = feed.race;
    w.next_frame = 0;
  }
  while (w.race && w.next_frame < w.race->frames.size() && room_for_more()) add(w.race->frames[w.next_frame++]);
  const bool race_sent = !w.race || (w.race == feed.race && w.next_frame >= w.race->frames.size());
  if (!race_sent || !room_for_more()) return;
  if (w.stats_version < feed.stats_version) {
    if (feed.stats) add(feed.stats);
    w.stats_version = feed.stats_version;
  }
  const std::uint64_t first_kept = feed.chat_count - feed.chat.size() + 1;
  for (std::uint64_t line = std::max(w.chat_count + 1, first_kept); line <= feed.chat_count; ++line) {
    add(feed.chat[static_cast<std::size_t>(line - first_kept)]);
  }
  w.chat_count = feed.chat_count;
  if (feed.closed && !w.closed_sent) {
    add(feed.closed);
    w.closed_sent = true;
  }
}

}  // namespace sr::server::web
