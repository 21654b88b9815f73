// ListFolder: what a file dialog offers — sub-folders and files of the kinds asked for, by
// name, folders first; hidden entries, other kinds and anything not a regular file left out;
// a folder that cannot be listed named, never thrown.
#include "sim/io/folder_listing.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/sim/file_test_util.h"

namespace {

using file_test::ScratchFolder;
using file_test::WriteText;

std::vector<std::string> Names(const sim::FolderListing& listing) {
  std::vector<std::string> names;
  for (const sim::FolderEntry& entry : listing.entries) names.push_back(entry.is_folder ? entry.name + "/" : entry.name);
  return names;
}

TEST(FolderListing, FoldersThenTheFilesAskedForByName) {
  ScratchFolder folder("folder_listing");
  const std::string root = folder.path().string();
  for (const char* name : {"b.csv", "a.json", "notes.txt", ".hidden.json", "json"}) WriteText(root + "/" + name, "{}");
  std::filesystem::create_directory(root + "/runs");
  std::filesystem::create_directory(root + "/.cache");
  ASSERT_EQ(mkfifo((root + "/pipe.json").c_str(), 0600), 0);  // would block a reader: never offered
  const sim::FolderListing listing = sim::ListFolder(root, {".json", ".csv"});
  EXPECT_EQ(listing.error, "");
  EXPECT_EQ(Names(listing), (std::vector<std::string>{"runs/", "a.json", "b.csv"}));
  EXPECT_FALSE(listing.cut);
  EXPECT_EQ(listing.folder, std::filesystem::absolute(root).lexically_normal().string());
}

TEST(FolderListing, WhatCannotBeListedIsNamed) {
  ScratchFolder folder("folder_listing_missing");
  const std::string missing = folder.path().string() + "/no-such-folder";
  const sim::FolderListing listing = sim::ListFolder(missing, {".json"});
  EXPECT_NE(listing.error.find("'" + missing + "' is not a folder that can be opened"), std::string::npos) << listing.error;
  EXPECT_TRUE(listing.entries.empty());
  WriteText(folder.path().string() + "/file.json", "{}");
  EXPECT_NE(sim::ListFolder(folder.path().string() + "/file.json", {".json"}).error, "") << "a file is no folder";
}

TEST(FolderListing, AHugeFolderIsCutAtTheLimit) {
  ScratchFolder folder("folder_listing_huge");
  for (std::size_t i = 0; i <= sim::kMaxListedEntries; ++i) {
    WriteText(folder.path().string() + "/r" + std::to_string(i) + ".json", "");
  }
  const sim::FolderListing listing = sim::ListFolder(folder.path().string(), {".json"});
  EXPECT_TRUE(listing.cut);
  EXPECT_EQ(listing.entries.size(), sim::kMaxListedEntries);
}

}  // namespace
