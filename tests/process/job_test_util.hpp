#pragma once
// What the job tests share: a scratch world for a JobTable (its own directory, logs in it, a
// command registry of its own, and the notices it posts). Not thread-safe (ScopedPlaces).

#include "core/pending_notices.hpp"
#include "process/job_table.hpp"
#include "process/process_test_util.hpp"
#include "support/scoped_places.hpp"
#include "support/temp_dir.hpp"
#include "tools/job_report.hpp"

namespace nib::testing {

struct JobScratch {
  // Options for a table whose logs go to dir/logs and whose notices go to `notices`.
  process::JobTableOptions options() {
    return {.notices = &notices,
            .end_notice = tools::job_end_notice,
            .create_log = [this](std::string_view prefix) {
              return process::create_log_in(process::open_private_dir(dir.path() / "logs").value(),
                                            prefix);
            }};
  }

  TempDir dir;
  TempDir runtime;
  ScopedPlaces runtime_places{&util::UserPlaces::runtime_dir, runtime.path()};
  core::PendingNotices notices;
};

}  // namespace nib::testing
