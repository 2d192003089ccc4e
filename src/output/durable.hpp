#pragma once
// Durable files and folders: what is published must survive a power loss.
// A file's data and a folder's entries reach the disk only when fsync(2)ed;
// a rename is durable only once the folder holding it is synced. Private to
// the core library.

#include <string>

namespace roofline::output {

// fsync of a file or a folder (opened read-only, never through a symbolic
// link at the end of the path; a symbolic link itself is skipped, its folder's
// sync covers it). A file system that cannot sync a folder (EINVAL) is not an
// error. Throws std::runtime_error naming the path.
void sync_path(std::string const& path);
// Every file and folder under `folder`, then `folder` itself.
void sync_tree(std::string const& folder);
// Syncs `folder` after `what` was renamed into it. Once the rename is done
// a failure is no reason to fail: the warning to show ("<what> is published,
// but may not survive a power loss: ..."), or "" when it is synced.
std::string sync_after_rename(std::string const& folder, std::string const& what);

// Makes `folder` and its missing parents, syncing the folder above each one
// made (so that a new out/<name> survives a power loss). Throws
// std::runtime_error.
void make_folders(std::string const& folder);

// Throws std::runtime_error when `path` is a symbolic link (dangling or
// not): a folder the tool writes into (out/<name>, a version, out/diffs) is
// never followed to wherever a link points. `what` names it in the message:
// "'out/x' is a symbolic link; a report folder must be a plain folder".
void refuse_symbolic_link(std::string const& path, std::string const& what);

// Renames `from` to `to` only when `to` does not exist (renameat2's
// RENAME_NOREPLACE, where the file system has it): false when it exists.
// Throws std::runtime_error on other errors.
bool rename_new(std::string const& from, std::string const& to);

}  // namespace roofline::output
