#pragma once
// Which network addresses web_fetch may connect to: public ones only, unless allowed. Private,
// loopback, link-local, unique-local, unspecified, multicast and reserved addresses are this
// machine and the networks around it (a router's admin page, a cloud's metadata service at
// 169.254.169.254, a developer's local servers), which a model must not probe. IPv6 addresses
// that embed an IPv4 one (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) are
// judged by the IPv4 address. Pure functions; thread-safe.

#include <optional>
#include <string>
#include <string_view>

struct sockaddr;

namespace nib::tools {

// What kind of non-public address `address` is ("loopback", "private", "link-local", ...), or
// nothing for a public address. An address family other than IPv4 and IPv6 is "non-IP".
std::optional<std::string_view> non_public_address_kind(const sockaddr& address);

// The address without its port: "127.0.0.1", "::1", "::ffff:10.0.0.1".
std::string address_text(const sockaddr& address);

// The refusal of a connection to a non-public `address`, naming it and its kind ("127.0.0.1 is a
// loopback address"), or "" when it is public.
std::string non_public_address_refusal(const sockaddr& address);

}  // namespace nib::tools
