#include "server/web/http_response.h"

#include <unistd.h>

#include "server/web/web_json.h"

namespace sr::server::web {

HttpResponse::HttpResponse(HttpResponse&& other) noexcept
    : status(other.status),
      content_type(std::move(other.content_type)),
      body(std::move(other.body)),
      headers(std::move(other.headers)),
      file_fd(std::exchange(other.file_fd, -1)),
      file_bytes(other.file_bytes),
      close(other.close),
      stream(other.stream) {}

HttpResponse& HttpResponse::operator=(HttpResponse&& other) noexcept {
  if (this != &other) {
    if (file_fd >= 0) ::close(file_fd);
    status = other.status;
    content_type = std::move(other.content_type);
    body = std::move(other.body);
    headers = std::move(other.headers);
    file_fd = std::exchange(other.file_fd, -1);
    file_bytes = other.file_bytes;
    close = other.close;
    stream = other.stream;
  }
  return *this;
}

HttpResponse::~HttpResponse() {
  if (file_fd >= 0) ::close(file_fd);
}

const char* status_reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 413: return "Content Too Large";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Unknown";
  }
}

std::string response_head(const HttpResponse& r, bool keep_alive) {
  std::string h = "HTTP/1.1 " + std::to_string(r.status) + " " + status_reason(r.status) + "\r\n";
  if (!r.content_type.empty()) h += "Content-Type: " + r.content_type + "\r\n";
  if (!r.stream) h += "Content-Length: " + std::to_string(r.body_bytes()) + "\r\n";
  h += keep_alive && !r.close ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
  h += "Content-Security-Policy: ";
  h += kContentSecurityPolicy;
  h += "\r\nX-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\n";
  for (const auto& [name, value] : r.headers) h += name + ": " + value + "\r\n";
  h += "\r\n";
  return h;
}

HttpResponse text_response(int status, std::string text) {
  HttpResponse r;
  r.status = status;
  r.content_type = "text/plain; charset=utf-8";
  r.body = std::make_shared<const std::string>(std::move(text));
  r.headers.emplace_back("Cache-Control", "no-store");
  return r;
}

HttpResponse json_response(std::string json, int status) {
  HttpResponse r;
  r.status = status;
  r.content_type = "application/json";
  r.body = std::make_shared<const std::string>(std::move(json));
  r.headers.emplace_back("Cache-Control", "no-cache");
  // Public, read-only data: any page or tool may read it.
  r.headers.emplace_back("Access-Control-Allow-Origin", "*");
  return r;
}

HttpResponse json_error(int status, const std::string& message) {
  JsonWriter w = json_writer();
  w.begin_object().key("error").value(message).end_object();
  HttpResponse r = json_response(w.text(), status);
  r.headers[0].second = "no-store";
  return r;
}

}  // namespace sr::server::web
