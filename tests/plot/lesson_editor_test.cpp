// The lesson the settings keep: autosave asks for it four times a second, so the editor makes
// its JSON again only when the running lesson changed, and an edit still reaches the settings.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "app/gui/settings_store.h"
#include "app/pages/lesson_editor.h"
#include "sim/lesson/lesson_edit.h"
#include "sim/lesson/lesson_file.h"

namespace {

// An editor over a lesson of its own, as OpenLesson holds one: every lesson run is a new generation.
struct EditedLesson {
  sim::LessonConfig running = sim::DefaultLesson();
  std::uint64_t generation = 1;
  gui::LessonEditor editor{[this](const sim::LessonConfig& lesson) {
                             running = lesson;
                             ++generation;
                           },
                           [this]() -> const sim::LessonConfig& { return running; }};
};

TEST(LessonEditorSettings, AnUnchangedLessonIsNotMadeAgain) {
  EditedLesson lesson;
  gui::Settings settings;
  for (int check = 0; check < 8; ++check) lesson.editor.SaveSettings(settings, lesson.generation);
  EXPECT_EQ(lesson.editor.settings_serialisations(), 1u) << "eight autosave checks of one lesson: one JSON";
  EXPECT_EQ(settings.last_lesson_changes, 1u);
  EXPECT_EQ(settings.last_lesson["m"], lesson.running.m);
}

TEST(LessonEditorSettings, AnEditIsSavedOnce) {
  EditedLesson lesson;
  gui::Settings settings;
  lesson.editor.SaveSettings(settings, lesson.generation);
  std::vector<sim::LessonEdit> edits;
  ASSERT_FALSE(sim::ReadLessonEdits("m=8 n=8 tile=4", edits));
  ASSERT_FALSE(lesson.editor.Edit(edits));
  for (int check = 0; check < 4; ++check) lesson.editor.SaveSettings(settings, lesson.generation);
  EXPECT_EQ(settings.last_lesson["m"], 8);
  EXPECT_EQ(settings.last_lesson["tile"], 4);
  EXPECT_EQ(settings.last_lesson_changes, 2u);
  EXPECT_EQ(lesson.editor.settings_serialisations(), 2u);
}

// A new generation of an equal lesson (a barrier switched off and on) is made again, but is
// no change for autosave to write.
TEST(LessonEditorSettings, AnEqualLessonAgainIsNoChange) {
  EditedLesson lesson;
  gui::Settings settings;
  lesson.editor.SaveSettings(settings, lesson.generation);
  ASSERT_FALSE(lesson.editor.Run(lesson.running, ""));
  lesson.editor.SaveSettings(settings, lesson.generation);
  EXPECT_EQ(lesson.editor.settings_serialisations(), 2u);
  EXPECT_EQ(settings.last_lesson_changes, 1u);
}

}  // namespace
