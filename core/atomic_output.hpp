// One way to write an output file: never over something that is not a regular file, through a
// unique temporary file beside the target, every write and the close checked, and an atomic
// rename only once all of it succeeded. A failure names the target and the OS's reason and leaves
// the previous target as it was and no temporary file behind.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <string_view>

namespace slicewise {

class AtomicOutput {
 public:
  /// Checks the target (an existing target must be a regular file) and creates a unique
  /// temporary file beside it (mkstemp). A target that is a symbolic link is written through: the
  /// file it leads to is replaced and the link kept (a link loop is an error). A target rewritten
  /// keeps its permissions; a new one gets 0666 less the umask. Throws Error ("TARGET: cannot
  /// write: REASON"). What earlier writers of the same file left when killed is removed first.
  explicit AtomicOutput(std::filesystem::path target);
  ~AtomicOutput();  ///< removes the temporary file unless committed
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  const std::filesystem::path& target() const { return target_; }
  /// The temporary file, for libraries that write by file name (libxlsxwriter, QPdfWriter): call
  /// close_for_library() first, then let them write it, then commit().
  const std::filesystem::path& temporary() const { return temporary_; }

  /// Appends `data`; retries short writes and EINTR; throws on any other failure.
  void write(std::string_view data);
  /// Closes this object's descriptor so that a library can write the temporary file by name.
  void close_for_library();
  /// Adds permission bits (an executable script: 0111) to those the written file gets.
  void add_permissions(mode_t bits) { mode_ |= bits; }
  /// Everything commit() does short of the rename: flushes to disk, closes (checked), checks the
  /// target again and sets the permissions. What is left, the rename, fails only when the target
  /// changed meanwhile.
  void finish();
  /// finish(), then renames the temporary file over the target.
  void commit();

  /// Throws Error naming the target and `reason`, after removing the temporary file.
  [[noreturn]] void fail(const std::string& reason);

 private:
  std::filesystem::path target_;
  std::filesystem::path written_;  ///< the target, or the file its symbolic links lead to
  std::filesystem::path temporary_;
  mode_t mode_ = 0644;  ///< the permissions the written file gets
  int lock_fd_ = -1;    ///< holds the temporary file's lock while this writer lives
  int live_slot_ = -1;  ///< its slot among the files a signal removes; -1 when none
  int fd_ = -1;
  bool committed_ = false;
};

/// Removes every temporary file being written now. Async-signal-safe: for a signal handler.
void remove_live_temporaries() noexcept;

/// On SIGINT, SIGTERM and SIGHUP: removes the temporary files being written, then dies of the
/// signal as it would have. A writer killed outright (SIGKILL) cannot; its temporary file is
/// removed by the next writer of the same file, once no process holds its lock and it has been
/// untouched for 10 s. The CLI's main() installs this.
void remove_temporaries_on_signals();

/// Whether `target` can be written, found out before a long run rather than after it: makes and
/// removes the temporary file a write would make beside it. Throws Error as AtomicOutput does
/// ("TARGET: cannot write: Permission denied").
void check_writable_output(const std::filesystem::path& target);

/// Refuses a target that exists and is not a regular file (a device, a FIFO, a folder): writing
/// one through a rename would replace it. Throws Error ("TARGET: cannot write: not a regular file
/// (a character device)").
void check_output_target(const std::filesystem::path& target);

}  // namespace slicewise
