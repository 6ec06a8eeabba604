// Which addresses web_fetch refuses: a table of IPv4 and IPv6 addresses, with the kind each
// non-public one is (the IANA special-purpose registries) and the public ones beside them.

#include "tools/web_address.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

namespace nib::tools {
namespace {

sockaddr_storage address_of(const std::string& text) {
  sockaddr_storage storage{};
  auto* ipv4 = reinterpret_cast<sockaddr_in*>(&storage);
  auto* ipv6 = reinterpret_cast<sockaddr_in6*>(&storage);
  if (inet_pton(AF_INET, text.c_str(), &ipv4->sin_addr) == 1) {
    ipv4->sin_family = AF_INET;
    ipv4->sin_port = htons(443);
  } else if (inet_pton(AF_INET6, text.c_str(), &ipv6->sin6_addr) == 1) {
    ipv6->sin6_family = AF_INET6;
    ipv6->sin6_port = htons(443);
  } else {
    ADD_FAILURE() << "not an address: " << text;
  }
  return storage;
}

std::string kind_of(const std::string& text) {
  const sockaddr_storage storage = address_of(text);
  const auto kind = non_public_address_kind(reinterpret_cast<const sockaddr&>(storage));
  return kind ? std::string(*kind) : "public";
}

struct Row {
  const char* address;
  const char* kind;
};

TEST(WebAddressTest, EachAddressIsOfItsKind) {
  const Row table[] = {
      // IPv4
      {"0.0.0.0", "unspecified"},
      {"0.1.2.3", "unspecified"},
      {"10.0.0.1", "private"},
      {"10.255.255.255", "private"},
      {"100.64.0.1", "shared (carrier-grade NAT)"},
      {"100.127.255.255", "shared (carrier-grade NAT)"},
      {"100.128.0.1", "public"},
      {"127.0.0.1", "loopback"},
      {"127.255.0.9", "loopback"},
      {"169.254.169.254", "link-local"},
      {"172.15.255.255", "public"},
      {"172.16.0.1", "private"},
      {"172.31.255.255", "private"},
      {"172.32.0.1", "public"},
      {"192.0.0.8", "reserved"},
      {"192.168.1.1", "private"},
      {"198.18.0.1", "reserved"},
      {"224.0.0.251", "multicast"},
      {"240.0.0.1", "reserved"},
      {"255.255.255.255", "broadcast"},
      {"1.1.1.1", "public"},
      {"8.8.8.8", "public"},
      {"93.184.216.34", "public"},
      // IPv6
      {"::", "unspecified"},
      {"::1", "loopback"},
      {"::ffff:127.0.0.1", "loopback"},
      {"::ffff:10.1.2.3", "private"},
      {"::ffff:169.254.169.254", "link-local"},
      {"::ffff:8.8.8.8", "public"},
      {"64:ff9b::c0a8:101", "private"},  // NAT64 of 192.168.1.1
      {"64:ff9b::808:808", "public"},    // NAT64 of 8.8.8.8
      {"2002:7f00:1::", "loopback"},     // 6to4 of 127.0.0.1
      {"2002:808:808::1", "public"},     // 6to4 of 8.8.8.8
      {"::127.0.0.1", "reserved"},       // IPv4-compatible, deprecated
      {"fe80::1", "link-local"},
      {"febf:ffff::1", "link-local"},
      {"fec0::1", "site-local"},
      {"fc00::1", "unique-local"},
      {"fd12:3456::1", "unique-local"},
      {"ff02::1", "multicast"},
      {"2001:4860:4860::8888", "public"},
      {"2606:4700::1111", "public"},
  };
  for (const Row& row : table) EXPECT_EQ(kind_of(row.address), row.kind) << row.address;
}

TEST(WebAddressTest, ARefusalNamesTheAddressAndItsKind) {
  const auto refusal = [](const std::string& text) {
    const sockaddr_storage storage = address_of(text);
    return non_public_address_refusal(reinterpret_cast<const sockaddr&>(storage));
  };
  EXPECT_EQ(refusal("127.0.0.1"), "127.0.0.1 is a loopback address");
  EXPECT_EQ(refusal("::ffff:10.0.0.1"), "::ffff:10.0.0.1 is a private address");
  EXPECT_EQ(refusal("::"), ":: is an unspecified address");
  EXPECT_EQ(refusal("fd00::1"), "fd00::1 is a unique-local address");
  EXPECT_EQ(refusal("8.8.8.8"), "");
}

TEST(WebAddressTest, AnAddressThatIsNotIpIsRefused) {
  sockaddr_un local{};
  local.sun_family = AF_UNIX;
  EXPECT_EQ(non_public_address_kind(reinterpret_cast<const sockaddr&>(local)), "non-IP");
}

}  // namespace
}  // namespace nib::tools
