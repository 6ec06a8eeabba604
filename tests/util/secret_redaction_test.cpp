#include "util/secret_redaction.hpp"

#include <gtest/gtest.h>

namespace nib::util {
namespace {

class SecretRedactionTest : public ::testing::Test {
 protected:
  ~SecretRedactionTest() override { clear_secrets_for_testing(); }
};

TEST_F(SecretRedactionTest, ReplacesEveryOccurrenceOfEverySecret) {
  register_secret("sk-test-1234567890");
  register_secret("ant-abcdefgh");
  EXPECT_EQ(redact_secrets("key sk-test-1234567890 and ant-abcdefghsk-test-1234567890."),
            "key [redacted] and [redacted][redacted].");
  EXPECT_EQ(redact_secrets("nothing here"), "nothing here");
}

TEST_F(SecretRedactionTest, ShortValuesAreNotSecrets) {
  register_secret("none");
  register_secret("");
  EXPECT_EQ(redact_secrets("none of this"), "none of this");
}

TEST_F(SecretRedactionTest, ALongerSecretThatHoldsAShorterOneGoesWhole) {
  register_secret("abcdefgh");
  register_secret("xx-abcdefgh-yy");
  EXPECT_EQ(redact_secrets("[xx-abcdefgh-yy] [abcdefgh]"), "[[redacted]] [[redacted]]");
}

TEST_F(SecretRedactionTest, ASecretThatContainsTheMarkerDoesNotLoop) {
  register_secret("[redacted]x");
  EXPECT_EQ(redact_secrets("[redacted]x[redacted]x"), "[redacted][redacted]");
}

}  // namespace
}  // namespace nib::util
