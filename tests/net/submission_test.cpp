#include "net/identity/submission.h"

#include <gtest/gtest.h>

#include "tests/support/test_keys.h"

namespace sr::net {
namespace {

Submission sample() {
  Submission s;
  s.server_key = test::test_key("server").public_key();
  s.server_name = "Ada's server";
  s.web_url = "http://example.org:8080/";
  s.game_id = "00112233445566aa";
  s.sequence = 17;
  s.replay = {'S', 'R', 'R', 'P', 1, 0, 1, 2, 3, 250, 255};
  s.runs = {RunClaim{0, test::test_key("ada").sign(std::vector<std::uint8_t>{1})},
            RunClaim{2, test::test_key("bo").sign(std::vector<std::uint8_t>{2})}};
  return s;
}

TEST(Submission, RoundTripsWhenSignedByTheKeyItNames) {
  const Submission s = sample();
  const std::string body = encode_submission(s);
  auto parsed = parse_submission(body, sign_submission(test::test_key("server"), body));
  ASSERT_TRUE(parsed.ok()) << parsed.error().reason;
  EXPECT_EQ(parsed.value(), s);
}

TEST(Submission, TheBodyIsJsonWithTheReplayInBase64) {
  Submission s = sample();
  s.runs.resize(1);
  const std::string body = encode_submission(s);
  EXPECT_NE(body.find("\"version\":1,\"server_key\":\"" + to_hex(s.server_key) + "\""), std::string::npos) << body;
  EXPECT_NE(body.find("\"server\":\"Ada's server\",\"web\":\"http://example.org:8080/\",\"game\":\"00112233445566aa\","
                      "\"sequence\":17,\"replay\":\"U1JSUAEAAQID+v8=\",\"runs\":[{\"racer\":0,\"signature\":\""),
            std::string::npos)
      << body;
}

TEST(Submission, ASignatureOfAnythingElseIsRefusedWith403) {
  const Submission s = sample();
  const std::string body = encode_submission(s);
  // Another key's signature of the same body: a server cannot submit in another server's name.
  auto forged = parse_submission(body, sign_submission(test::test_key("mallory"), body));
  ASSERT_FALSE(forged.ok());
  EXPECT_EQ(forged.error().status, 403);
  EXPECT_EQ(forged.error().reason, "the signature is not server_key's signature of this body");
  // The right key's signature of a body changed afterwards (one more run claimed).
  const std::string signature = sign_submission(test::test_key("server"), body);
  std::string changed = body;
  changed.replace(changed.find("\"sequence\":17"), 13, "\"sequence\":18");
  auto tampered = parse_submission(changed, signature);
  ASSERT_FALSE(tampered.ok());
  EXPECT_EQ(tampered.error().status, 403);
  // A header that is no signature at all.
  auto garbage = parse_submission(body, "xyz");
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.error().status, 403);
  EXPECT_EQ(garbage.error().reason, "X-Stackrace-Signature must be 128 lower-case hex digits");
}

// Each malformed body, signed by the key it names (so that only the form is wrong), gets 400 and its sentence.
TEST(Submission, MalformedBodiesAreRefusedWith400AndASentence) {
  const PlayerKey key = test::test_key("server");
  const std::string k = to_hex(key.public_key());
  const std::string sig(128, 'a');
  const std::string run = "{\"racer\":0,\"signature\":\"" + sig + "\"}";
  auto body = [&](const std::string& middle) { return "{\"version\":1,\"server_key\":\"" + k + "\"," + middle + "}"; };
  const std::string ok_rest = "\"server\":\"s\",\"sequence\":1,\"replay\":\"AAAA\",\"runs\":[" + run + "]";
  struct Case {
    std::string body;
    std::string reason;
  };
  const std::vector<Case> cases = {
      {"", "the body is empty; send the submission as JSON"},
      {"[1]", "the body must be a JSON object"},
      {"{\"version\":1,\"version\":1}", "the member \"version\" appears twice"},
      {"{\"version\":2}", "submission version 2; this hub reads version 1"},
      {"{\"version\":1,\"server_key\":\"AB\"}", "server_key must be 64 lower-case hex digits"},
      {body("\"sequence\":1,\"replay\":\"AAAA\",\"runs\":[" + run + "]"), "server (the server's name) is missing"},
      {body("\"server\":\"s\",\"game\":\"xyz\",\"sequence\":1"), "game must be empty or 16 lower-case hex digits"},
      {body("\"server\":\"s\",\"sequence\":0"), "sequence must be a number >= 1"},
      {body("\"server\":\"s\",\"sequence\":1,\"replay\":\"!!!!\""), "replay is not base64 (RFC 4648, with padding)"},
      {body("\"server\":\"s\",\"sequence\":1,\"replay\":\"AAAA\",\"runs\":[]"), "runs must name 1..64 racers"},
      {body("\"server\":\"s\",\"sequence\":1,\"replay\":\"AAAA\",\"runs\":[" + run + "," + run + "]"),
       "runs[1].racer: racers must be listed once each, in increasing order"},
      {body("\"server\":\"s\",\"sequence\":1,\"replay\":\"AAAA\",\"runs\":[{\"racer\":64}]"),
       "runs[0].racer must be a racer index 0..63"},
      {body("\"server\":\"s\",\"sequence\":1,\"replay\":\"AAAA\",\"runs\":[{\"racer\":0,\"signature\":\"ab\"}]"),
       "runs[0].signature must be 128 lower-case hex digits"},
  };
  for (const Case& c : cases) {
    auto parsed = parse_submission(c.body, sign_submission(key, c.body));
    ASSERT_FALSE(parsed.ok()) << c.body;
    EXPECT_EQ(parsed.error().status, 400) << c.body;
    EXPECT_EQ(parsed.error().reason, c.reason) << c.body;
  }
  // The sample body is accepted, so the cases above fail for the reason they name.
  auto fine = parse_submission(body(ok_rest), sign_submission(key, body(ok_rest)));
  EXPECT_TRUE(fine.ok()) << fine.error().reason;
}

TEST(Submission, ABodyOverTheLimitIsRefusedWith413BeforeParsing) {
  const std::string huge(kMaxSubmissionBytes + 1, ' ');
  auto parsed = parse_submission(huge, "");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().status, 413);
  EXPECT_EQ(parsed.error().reason, "the submission is 1048577 bytes; at most 1048576");
}

}  // namespace
}  // namespace sr::net
