#include "tools/web_address.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <array>
#include <cstdint>
#include <cstring>

namespace nib::tools {
namespace {

// An IPv4 block: the address's top `bits` bits equal `prefix`'s.
struct Ipv4Block {
  std::uint32_t prefix;
  int bits;
  std::string_view kind;
};

constexpr std::uint32_t ipv4(unsigned a, unsigned b, unsigned c, unsigned d) {
  return (a << 24) | (b << 16) | (c << 8) | d;
}

// The IANA special-purpose blocks a fetch must not reach (RFC 6890 and its updates), the most
// specific first.
constexpr std::array<Ipv4Block, 12> kIpv4Blocks = {{
    {ipv4(0, 0, 0, 0), 8, "unspecified"},  // "this network"; 0.0.0.0 reaches this machine
    {ipv4(10, 0, 0, 0), 8, "private"},
    {ipv4(100, 64, 0, 0), 10, "shared (carrier-grade NAT)"},
    {ipv4(127, 0, 0, 0), 8, "loopback"},
    {ipv4(169, 254, 0, 0), 16, "link-local"},  // cloud metadata services live here
    {ipv4(172, 16, 0, 0), 12, "private"},
    {ipv4(192, 0, 0, 0), 24, "reserved"},  // IETF protocol assignments
    {ipv4(192, 168, 0, 0), 16, "private"},
    {ipv4(198, 18, 0, 0), 15, "reserved"},  // network benchmarking, used inside networks
    {ipv4(255, 255, 255, 255), 32, "broadcast"},
    {ipv4(224, 0, 0, 0), 4, "multicast"},
    {ipv4(240, 0, 0, 0), 4, "reserved"},
}};

std::optional<std::string_view> ipv4_kind(std::uint32_t address) {
  for (const Ipv4Block& block : kIpv4Blocks) {
    const std::uint32_t mask = block.bits == 0 ? 0 : ~std::uint32_t{0} << (32 - block.bits);
    if ((address & mask) == block.prefix) return block.kind;
  }
  return std::nullopt;
}

std::uint32_t ipv4_at(const std::uint8_t* bytes) {
  return ipv4(bytes[0], bytes[1], bytes[2], bytes[3]);
}

bool starts_with(const std::uint8_t (&bytes)[16], std::initializer_list<std::uint8_t> prefix) {
  return std::memcmp(bytes, prefix.begin(), prefix.size()) == 0;
}

std::optional<std::string_view> ipv6_kind(const in6_addr& address) {
  const auto& bytes = address.s6_addr;
  static constexpr std::uint8_t kZero[16] = {};
  if (std::memcmp(bytes, kZero, 16) == 0) return "unspecified";
  if (std::memcmp(bytes, kZero, 15) == 0 && bytes[15] == 1) return "loopback";
  // IPv4-mapped (::ffff:0:0/96) and NAT64 (64:ff9b::/96): the IPv4 address in the last 4 bytes.
  if (starts_with(bytes, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff}) ||
      starts_with(bytes, {0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0})) {
    return ipv4_kind(ipv4_at(bytes + 12));
  }
  if (std::memcmp(bytes, kZero, 12) == 0) return "reserved";  // IPv4-compatible, deprecated
  if (starts_with(bytes, {0x20, 0x02})) return ipv4_kind(ipv4_at(bytes + 2));  // 6to4
  if (bytes[0] == 0xfe && (bytes[1] & 0xc0) == 0x80) return "link-local";      // fe80::/10
  if (bytes[0] == 0xfe && (bytes[1] & 0xc0) == 0xc0) return "site-local";      // fec0::/10
  if ((bytes[0] & 0xfe) == 0xfc) return "unique-local";                        // fc00::/7
  if (bytes[0] == 0xff) return "multicast";                                    // ff00::/8
  return std::nullopt;
}

}  // namespace

std::optional<std::string_view> non_public_address_kind(const sockaddr& address) {
  if (address.sa_family == AF_INET) {
    const auto& ipv4_address = reinterpret_cast<const sockaddr_in&>(address);
    return ipv4_kind(ntohl(ipv4_address.sin_addr.s_addr));
  }
  if (address.sa_family == AF_INET6) {
    return ipv6_kind(reinterpret_cast<const sockaddr_in6&>(address).sin6_addr);
  }
  return "non-IP";
}

std::string address_text(const sockaddr& address) {
  char text[INET6_ADDRSTRLEN] = {};
  if (address.sa_family == AF_INET) {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(address).sin_addr, text, sizeof(text));
  } else if (address.sa_family == AF_INET6) {
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(address).sin6_addr, text,
              sizeof(text));
  } else {
    return "an address of family " + std::to_string(address.sa_family);
  }
  return text;
}

std::string non_public_address_refusal(const sockaddr& address) {
  const std::optional<std::string_view> kind = non_public_address_kind(address);
  if (!kind) return "";
  // "an unspecified", but "a unique-local".
  const bool an = std::string_view("aeio").find(kind->front()) != std::string_view::npos ||
                  kind->starts_with("unsp");
  return address_text(address) + " is " + (an ? "an " : "a ") + std::string(*kind) + " address";
}

}  // namespace nib::tools
