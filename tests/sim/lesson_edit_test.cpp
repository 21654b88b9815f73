// The lesson's one grammar: each field read by the same rules whoever names it, messages
// that quote the value as given and the field as the caller spells it, and edited lessons
// that stop calling themselves by the preset's name.
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/lesson_edit.h"

#include <gtest/gtest.h>

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
