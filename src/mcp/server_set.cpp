#include "mcp/server_set.hpp"

#include <algorithm>
#include <set>

#include "mcp/mcp_tool.hpp"
#include "mcp/tool_name.hpp"
#include "util/text_cut.hpp"

namespace nib::mcp {
namespace {

// The note quotes this much of a failure's first line: enough to tell the model why.
constexpr std::size_t kNoteReasonBytes = 160;

std::string first_line(const std::string& text) {
  return util::cut_text(std::string_view(text).substr(0, text.find('\n')), kNoteReasonBytes);
}

}  // namespace

std::string unavailable_servers_note(const std::vector<ServerStatus>& statuses) {
  std::string lines;
  for (const ServerStatus& status : statuses) {
    const std::string tools = " (tools " + tool_prefix(status.name) + "*)";
    switch (status.state) {
      case ServerState::kReady:
        break;
      case ServerState::kConnecting:
        lines += "- " + status.name + tools +
                 ": still starting; its tools will be offered once it is ready.\n";
        break;
      case ServerState::kFailed:
        lines += "- " + status.name + tools + ": failed (" + first_line(status.detail) +
                 "); its tools are unavailable.\n";
        break;
      case ServerState::kNotApproved:
        lines += "- " + status.name + tools +
                 ": configured by the project but not approved by the user; its tools are "
                 "unavailable.\n";
        break;
    }
  }
  if (lines.empty()) return {};
  return "# MCP servers whose tools are not available\n" + lines;
}

ServerSet::ServerSet(std::vector<ServerConfig> servers, std::vector<ServerStatus> not_approved,
                     ServerSetOptions options)
    : options_(std::move(options)), not_approved_(std::move(not_approved)) {
  for (ServerConfig& config : servers) entries_.push_back(make_entry(std::move(config)));
  update_note();
}

std::unique_ptr<ServerSet::Entry> ServerSet::make_entry(ServerConfig config) const {
  auto entry = std::make_unique<Entry>();
  auto expanded = expand_config(config, options_.variables);
  if (expanded.ok()) {
    entry->connection =
        std::make_shared<ServerConnection>(std::move(expanded.value()), options_.connection);
  } else {
    entry->failed_early = {.name = config.name,
                           .state = ServerState::kFailed,
                           .detail = config.file.string() + ": " + expanded.error(),
                           .origin = config.origin,
                           .transport = describe_transport(config)};
  }
  return entry;
}

ServerSet::~ServerSet() {
  options_.registry->set_awaiter(nullptr);
  // The tools in the registry keep their connections; none may call back into this set.
  for (auto& entry : entries_) {
    if (entry->connection) entry->connection->set_on_change(nullptr);
    entry->thread.request_stop();
  }
  {
    std::lock_guard lock(mutex_);
    changed_.notify_all();
  }
  for (auto& entry : entries_) {
    if (entry->thread.joinable()) entry->thread.join();
    if (entry->connection) entry->connection->shutdown();
  }
}

void ServerSet::start() {
  options_.registry->set_awaiter([this](const std::string& name) { return await_server_of(name); });
  std::vector<Entry*> entries;
  {
    std::lock_guard lock(mutex_);
    started_ = true;
    for (auto& entry : entries_) entries.push_back(entry.get());
  }
  for (Entry* entry : entries) launch(*entry);
}

void ServerSet::start_approved(ServerConfig config) {
  Entry* entry = nullptr;
  bool started = false;
  {
    std::lock_guard lock(mutex_);
    std::erase_if(not_approved_,
                  [&](const ServerStatus& status) { return status.name == config.name; });
    entries_.push_back(make_entry(std::move(config)));
    entry = entries_.back().get();
    started = started_;
  }
  if (started) launch(*entry);  // else start() launches it with the others
  changed();
}

void ServerSet::launch(Entry& entry) {
  if (!entry.connection) return;
  Entry* raw = &entry;
  raw->connection->set_on_change([this, raw](ServerChange change) {
    if (change != ServerChange::kState) {
      std::lock_guard lock(mutex_);
      (change == ServerChange::kTools ? raw->relist_tools : raw->relist_prompts) = true;
    }
    changed();
  });
  raw->thread = std::jthread([this, raw](std::stop_token stop) { run(*raw, stop); });
}

void ServerSet::run(Entry& entry, std::stop_token stop) {
  auto tools = entry.connection->start(stop);
  if (tools.ok()) register_tools(entry, tools.value());
  changed();
  // Then it waits for the server to say its tools or prompts changed, until the set ends.
  std::stop_callback wake(stop, [this] {
    std::lock_guard lock(mutex_);
    changed_.notify_all();
  });
  while (!stop.stop_requested()) {
    bool tools = false;
    bool prompts = false;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] {
        return entry.relist_tools || entry.relist_prompts || stop.stop_requested();
      });
      if (stop.stop_requested()) return;
      tools = std::exchange(entry.relist_tools, false);
      prompts = std::exchange(entry.relist_prompts, false);
    }
    if (tools) {
      auto listed = entry.connection->list_tools(stop);
      if (listed.ok()) register_tools(entry, listed.value());
    }
    // A failed listing keeps the prompts known before.
    if (prompts) (void)entry.connection->list_prompts(stop);
    changed();
  }
}

void ServerSet::register_tools(Entry& entry, const std::vector<ServerTool>& tools) {
  const std::vector<std::string> names = options_.registry->names();
  const std::set<std::string> present(names.begin(), names.end());
  std::vector<std::string> registered;
  std::string left_out;
  for (const ServerTool& tool : tools) {
    core::ToolPtr adapter = make_mcp_tool(entry.connection, tool);
    // One registered at an earlier listing stays.
    const util::Status added = present.contains(adapter->name())
                                   ? util::Status::success()
                                   : options_.registry->add(std::move(adapter));
    if (added.ok()) {
      registered.push_back(tool.name);
    } else {
      left_out += "tool " + tool.name + " left out: " + added.error() + "\n";
    }
  }
  entry.connection->set_tools(std::move(registered), left_out);
}

void ServerSet::changed() {
  update_note();
  {
    std::lock_guard lock(mutex_);
    ++generation_;
    changed_.notify_all();
  }
  if (options_.on_change) options_.on_change();
}

void ServerSet::update_note() {
  options_.registry->set_note(unavailable_servers_note(statuses()));
}

void ServerSet::wait_settled(std::stop_token stop) {
  std::stop_callback wake(stop, [this] {
    std::lock_guard lock(mutex_);
    changed_.notify_all();
  });
  const auto settled = [&] {
    const auto all = statuses();
    return std::none_of(all.begin(), all.end(), [](const ServerStatus& status) {
      return status.state == ServerState::kConnecting;
    });
  };
  std::unique_lock lock(mutex_);
  while (!stop.stop_requested()) {
    const std::uint64_t seen = generation_;
    lock.unlock();
    const bool done = settled();
    lock.lock();
    if (done) return;
    changed_.wait(lock, [&] { return generation_ != seen || stop.stop_requested(); });
  }
}

bool ServerSet::await_server_of(const std::string& name, std::stop_token stop) {
  std::stop_callback wake(stop, [this] {
    std::lock_guard lock(mutex_);
    changed_.notify_all();
  });
  std::unique_lock lock(mutex_);
  std::shared_ptr<ServerConnection> server;
  for (const auto& entry : entries_) {
    if (entry->connection && name.starts_with(tool_prefix(entry->connection->config().name))) {
      server = entry->connection;
    }
  }
  if (!server) return false;
  while (server->status().state == ServerState::kConnecting && !stop.stop_requested()) {
    const std::uint64_t seen = generation_;
    changed_.wait(lock, [&] { return generation_ != seen || stop.stop_requested(); });
  }
  return true;
}

std::vector<ServerStatus> ServerSet::statuses() const {
  std::lock_guard lock(mutex_);
  std::vector<ServerStatus> all;
  for (const auto& entry : entries_) {
    all.push_back(entry->connection ? entry->connection->status() : entry->failed_early);
  }
  all.insert(all.end(), not_approved_.begin(), not_approved_.end());
  return all;
}

std::shared_ptr<ServerConnection> ServerSet::find(const std::string& name) const {
  std::lock_guard lock(mutex_);
  for (const auto& entry : entries_) {
    if (entry->connection && entry->connection->config().name == name) return entry->connection;
  }
  return nullptr;
}

}  // namespace nib::mcp
