// The lesson's one grammar: each field read by the same rules whoever names it, messages
// that quote the value as given and the field as the caller spells it, and edited lessons
// that stop calling themselves by the preset's name.
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/lesson_edit.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "sim/lesson/lesson_file.h"

namespace {

TEST(LessonEdit, MessagesQuoteTheValueAndTheFieldAsTheCallerSpellsIt) {
  sim::LessonConfig lesson = sim::DefaultLesson();
  const auto cli = sim::ApplyLessonEdit("kernel", "cublas", lesson, "--kernel");
  ASSERT_TRUE(cli);
  EXPECT_EQ(cli->field, "kernel");
  EXPECT_EQ(cli->message, "--kernel 'cublas' is not one of tiled, rect, naive");
  const auto huge = sim::ApplyLessonEdit("m", "18446744073709551615", lesson, "m");
  ASSERT_TRUE(huge);
  EXPECT_NE(huge->message.find("'18446744073709551615'"), std::string::npos) << huge->message;
  EXPECT_NE(huge->message.find("65536"), std::string::npos) << huge->message;
  EXPECT_TRUE(sim::ApplyLessonEdit("m", "4x", lesson, "m"));
  EXPECT_TRUE(sim::ApplyLessonEdit("seed", "-1", lesson, "seed"));
  EXPECT_TRUE(sim::ApplyLessonEdit("fill_a", "random:x", lesson, "fill_a"));
  EXPECT_TRUE(sim::ApplyLessonEdit("colour", "red", lesson, "colour"));
  EXPECT_EQ(sim::LessonToJson(lesson), sim::LessonToJson(sim::DefaultLesson())) << "a refused edit changes nothing";
}

TEST(LessonEdit, FieldsSetWhatTheyName) {
  sim::LessonConfig lesson = sim::DefaultLesson();
  ASSERT_FALSE(sim::ApplyLessonEdits("m=8, n=6 barrier2=none fill=random:7 guard=off", lesson));
  EXPECT_EQ(lesson.m, 8);
  EXPECT_EQ(lesson.n, 6);
  EXPECT_EQ(lesson.barrier2, sim::SyncKind::kNone);
  EXPECT_FALSE(lesson.guard);
  EXPECT_EQ(sim::FillText(lesson.fill_a), "random:7");
  EXPECT_EQ(sim::FillText(lesson.fill_b), "random:8") << "one fill for both gives B the next seed";
  // A rectangular side makes the kernel rect, starting from the square tile on the others.
  ASSERT_FALSE(sim::ApplyLessonEdits("tile=4 tk=8", lesson));
  EXPECT_EQ(lesson.kernel, sim::KernelKind::kTiledRect);
  EXPECT_EQ(lesson.rect.tm, 4);
  EXPECT_EQ(lesson.rect.tn, 4);
  EXPECT_EQ(lesson.rect.tk, 8);
}

// The GUI builds typed edits, files and scripts write text: both must change a lesson alike.
TEST(LessonEdit, TextReadsAsTheTypedEditTheGuiBuilds) {
  const std::vector<std::pair<std::string, sim::LessonEdit>> same{
      {"barrier1=off", sim::BarrierEdit{sim::BarrierSlot::kFirst, sim::SyncKind::kNone}},
      {"barrier2=syncwarp", sim::BarrierEdit{sim::BarrierSlot::kSecond, sim::SyncKind::kSyncwarp}},
      {"guard=off", sim::GuardEdit{false}},
      {"scheduler=race", sim::SchedulerEdit{sim::SchedulerKind::kRaceExposing}},
      {"m=9", sim::SizeEdit{sim::SizeField::kM, 9}},
      {"tk=8", sim::SizeEdit{sim::SizeField::kTk, 8}},
      {"kernel=naive", sim::KernelEdit{sim::KernelKind::kNaive}},
      {"tiles=floor", sim::TileCountEdit{sim::TileCount::kFloor}},
      {"bs_layout=transposed", sim::LayoutEdit{sim::SharedLayout::kTransposed}},
      {"seed=42", sim::SeedEdit{42}},
      {"fill=random:7", sim::FillEdit{sim::FillTarget::kBoth, sim::FillKind::kRandom, 7}},
      {"fill_b=identity", sim::FillEdit{sim::FillTarget::kB, sim::FillKind::kIdentity, std::nullopt}},
  };
  for (const auto& [text, typed] : same) {
    SCOPED_TRACE(text);
    std::vector<sim::LessonEdit> read;
    ASSERT_FALSE(sim::ReadLessonEdits(text, read));
    ASSERT_EQ(read.size(), 1u);
    EXPECT_EQ(read[0].index(), typed.index()) << "the text reads as the same kind of edit";
    sim::LessonConfig from_text = sim::DefaultLesson();
    sim::LessonConfig from_typed = sim::DefaultLesson();
    sim::Apply(read[0], from_text);
    sim::Apply(typed, from_typed);
    EXPECT_EQ(sim::LessonToJson(from_text), sim::LessonToJson(from_typed));
    EXPECT_NE(sim::LessonToJson(from_typed), sim::LessonToJson(sim::DefaultLesson())) << "the edit changed something";
  }
}

TEST(LessonEdit, ApplyChangesOnlyTheFieldItNames) {
  sim::LessonConfig lesson = sim::DefaultLesson();
  sim::Apply(sim::BarrierEdit{sim::BarrierSlot::kSecond, sim::SyncKind::kNone}, lesson);
  EXPECT_EQ(lesson.barrier1, sim::SyncKind::kSyncthreads);
  EXPECT_EQ(lesson.barrier2, sim::SyncKind::kNone);
  sim::Apply(sim::SizeEdit{sim::SizeField::kN, 12}, lesson);
  EXPECT_EQ(lesson.m, 4);
  EXPECT_EQ(lesson.n, 12);
  EXPECT_EQ(lesson.k, 4);
  sim::Apply(sim::FillEdit{sim::FillTarget::kA, sim::FillKind::kIdentity, std::nullopt}, lesson);
  EXPECT_EQ(lesson.fill_a.kind, sim::FillKind::kIdentity);
  EXPECT_EQ(lesson.fill_b.kind, sim::FillKind::kSequence);
}

TEST(LessonEdit, SidesAndTilesFollowTheKernelShape) {
  sim::LessonConfig lesson = sim::DefaultLesson();
  lesson.tile = 4;
  sim::Apply(sim::SizeEdit{sim::SizeField::kTn, 8}, lesson);
  EXPECT_EQ(lesson.kernel, sim::KernelKind::kTiledRect) << "a side makes the kernel rectangular";
  EXPECT_EQ(lesson.rect.tm, 4);
  EXPECT_EQ(lesson.rect.tn, 8);
  EXPECT_EQ(lesson.rect.tk, 4);
  sim::Apply(sim::SizeEdit{sim::SizeField::kTile, 2}, lesson);
  EXPECT_EQ(lesson.rect.tm, 2) << "a square tile on a rectangular lesson sets every side";
  EXPECT_EQ(lesson.rect.tn, 2);
  EXPECT_EQ(lesson.rect.tk, 2);
  sim::Apply(sim::KernelEdit{sim::KernelKind::kTiled}, lesson);
  EXPECT_EQ(lesson.kernel, sim::KernelKind::kTiled);
}

TEST(LessonEdit, RandomWithoutASeedKeepsTheMatrixSeed) {
  sim::LessonConfig lesson = sim::DefaultLesson();
  const sim::FillEdit random_a{sim::FillTarget::kA, sim::FillKind::kRandom, std::nullopt};
  sim::Apply(random_a, lesson);
  EXPECT_EQ(sim::FillText(lesson.fill_a), "random:1") << "a sequence has no seed to keep";
  sim::Apply(sim::FillEdit{sim::FillTarget::kA, sim::FillKind::kRandom, 7}, lesson);
  sim::Apply(random_a, lesson);
  EXPECT_EQ(sim::FillText(lesson.fill_a), "random:7");
  sim::Apply(sim::FillEdit{sim::FillTarget::kBoth, sim::FillKind::kRandom, std::nullopt}, lesson);
  EXPECT_EQ(sim::FillText(lesson.fill_a), "random:7");
  EXPECT_EQ(sim::FillText(lesson.fill_b), "random:8") << "one fill for both gives B the next seed";
}

TEST(LessonEdit, TextWithOneBadPairChangesNothing) {
  std::vector<sim::LessonEdit> read;
  const auto bad = sim::ReadLessonEdits("m=8 barrier1=off n=x", read);
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->field, "n");
  EXPECT_TRUE(read.empty());
  sim::LessonConfig lesson = sim::DefaultLesson();
  EXPECT_TRUE(sim::ApplyLessonEdits("m=8 barrier1=off n=x", lesson));
  EXPECT_EQ(sim::LessonToJson(lesson), sim::LessonToJson(sim::DefaultLesson()));
  EXPECT_TRUE(sim::ReadLessonEdits(" , ", read)) << "no pair at all is refused too";
}

TEST(LessonEdit, AnEditedPresetIsNoLongerThePreset) {
  const sim::LessonConfig preset = sim::DefaultLesson();
  sim::LessonConfig same = preset;
  ASSERT_FALSE(sim::ApplyLessonEdits("m=4", same));
  sim::NoteEdited(same, preset);
  EXPECT_EQ(same.name, "default") << "an edit that changes nothing keeps the name";
  sim::LessonConfig bigger = preset;
  ASSERT_FALSE(sim::ApplyLessonEdits("tile=16 m=32 n=32 k=32", bigger));
  sim::NoteEdited(bigger, preset);
  EXPECT_EQ(bigger.name, "custom");
  EXPECT_EQ(bigger.description, "edited from default");
  sim::LessonConfig again = bigger;
  ASSERT_FALSE(sim::ApplyLessonEdits("k=64", again));
  sim::NoteEdited(again, bigger);
  EXPECT_EQ(again.description, "edited from default") << "the origin is kept across edits";
}

}  // namespace

namespace {

// edit-cell reads its value whole: "1,5" once stored 1, "0x10" 0, "1e-50" 0, "2 junk" 2 (issue 32).
TEST(LessonEdit, CellValueIsReadWholeOrRefused) {
  sim::LessonConfig lesson = sim::DefaultLesson();
  const std::size_t elements = static_cast<std::size_t>(lesson.m) * lesson.k;
  const std::vector<float> a(elements, 1.0f);
  const std::vector<float> b(static_cast<std::size_t>(lesson.k) * lesson.n, 1.0f);
  for (const char* bad : {"A 0 0 1,5", "A 0 0 0x10", "A 0 0 1e-50", "A 0 0 2 junk", "A 0 0 nan", "A 0.5 0 1",
                          "A 0x1 0 1"}) {
    sim::LessonConfig edited = lesson;
    const auto error = sim::ApplyCellEdit(bad, a, b, edited);
    EXPECT_TRUE(error) << bad;
    EXPECT_EQ(sim::LessonToJson(edited), sim::LessonToJson(lesson)) << bad << ": nothing stored";
  }
  sim::LessonConfig edited = lesson;
  ASSERT_FALSE(sim::ApplyCellEdit("A 0 1 -2.5e1", a, b, edited));
  EXPECT_EQ(edited.fill_a.kind, sim::FillKind::kExplicit);
  EXPECT_EQ(edited.fill_a.values.at(1), -25.0f);
}

}  // namespace
