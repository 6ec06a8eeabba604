#include "provider/service_error.hpp"

#include <gtest/gtest.h>

namespace nib::provider {
namespace {

using namespace std::chrono_literals;

net::HttpStreamResult with_header(const std::string& name, const std::string& value) {
  net::HttpStreamResult result;
  result.headers[name] = value;
  return result;
}

TEST(RetryAfterTest, ReadsSecondsMillisecondsAndHttpDates) {
  EXPECT_EQ(retry_after_of(with_header("retry-after", "3")), 3000ms);
  net::HttpStreamResult both = with_header("retry-after", "3");
  both.headers["retry-after-ms"] = "1500";
  EXPECT_EQ(retry_after_of(both), 1500ms);
  const auto now = std::chrono::system_clock::from_time_t(1445412470);  // 07:27:50 GMT
  EXPECT_EQ(retry_after_of(with_header("retry-after", "Wed, 21 Oct 2015 07:28:00 GMT"), now),
            10000ms);
  EXPECT_EQ(retry_after_of(with_header("retry-after", "soon")), std::nullopt);
  EXPECT_EQ(retry_after_of(net::HttpStreamResult{}), std::nullopt);
}

TEST(HttpErrorKindTest, ClassifiesStatusesAndOverflowText) {
  EXPECT_EQ(http_error_kind(429, "Rate limit reached"), core::ErrorKind::kRateLimited);
  EXPECT_EQ(http_error_kind(429, "You exceeded your current quota"), core::ErrorKind::kOther);
  EXPECT_EQ(http_error_kind(529, "Overloaded"), core::ErrorKind::kOverloaded);
  EXPECT_EQ(http_error_kind(503, ""), core::ErrorKind::kOverloaded);
  EXPECT_EQ(http_error_kind(502, "bad gateway"), core::ErrorKind::kServer);
  EXPECT_EQ(http_error_kind(400, "prompt is too long: 210000 tokens > 200000 maximum"),
            core::ErrorKind::kContextOverflow);
  EXPECT_EQ(http_error_kind(400,
                            "This model's maximum context length is 128000 tokens. However, your "
                            "messages resulted in 130000 tokens."),
            core::ErrorKind::kContextOverflow);
  EXPECT_EQ(http_error_kind(400,
                            "the request exceeds the available context size, try increasing "
                            "it"),
            core::ErrorKind::kContextOverflow);
  EXPECT_EQ(http_error_kind(401, "invalid x-api-key"), core::ErrorKind::kOther);
}

TEST(StreamErrorKindTest, ReadsTypeAndMessage) {
  EXPECT_EQ(stream_error_kind(R"({"type":"overloaded_error","message":"Overloaded"})"),
            core::ErrorKind::kOverloaded);
  EXPECT_EQ(stream_error_kind("rate_limit_error: slow down"), core::ErrorKind::kRateLimited);
  EXPECT_EQ(stream_error_kind("api_error: Internal server error"), core::ErrorKind::kServer);
  EXPECT_EQ(stream_error_kind("invalid_request_error: bad tool schema"), core::ErrorKind::kOther);
}

TEST(ErrorDetailTest, PrefersTheServiceMessage) {
  EXPECT_EQ(error_detail(R"({"type":"error","error":{"type":"x","message":"nope"}})"), "nope");
  EXPECT_EQ(error_detail(R"({"error":"plain"})"), "plain");
  EXPECT_EQ(error_detail("<html>bad</html>\n"), "<html>bad</html>");
  EXPECT_EQ(error_detail(""), "(empty body)");
}

}  // namespace
}  // namespace nib::provider
