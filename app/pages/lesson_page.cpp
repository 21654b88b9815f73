#include "app/pages/lesson_page.h"

#include <GLFW/glfw3.h>

#include <algorithm>

#include "app/gui/browser_page.h"
#include "sim/lesson/tour.h"
#include "sim/model/snapshot.h"

namespace gui {
namespace {

// Each row's own slot, taken before a tour's stop moves any; the Guide starts folded away (a
// stop shows it, or the View menu).
std::vector<const PanelSlot*> DefaultSlots(PanelTable& panels) {
  PanelRow& guide = panels.Row("Guide");
  guide.open = guide.open_presenting = false;
  std::vector<const PanelSlot*> slots;
  for (const PanelRow& row : panels.Rows()) slots.push_back(row.slot);
  return slots;
}

}  // namespace

LessonPage::LessonPage(const std::string& lesson, const nlohmann::json& saved_lesson,
                       const nlohmann::json& saved_guide, Notifications& notifications)
    : notifications_(notifications),
      panels_(PanelRows()),
      default_slots_(DefaultSlots(panels_)),
      lesson_(lesson, saved_lesson, saved_guide, notifications,
              TourDisplay{[this](const sim::TourStop& stop) { ShowStop(stop); }, [this] { LeaveTour(); }}),
      your_kernel_(lesson_) {}

const sim::Thread* LessonPage::PickedThread(const sim::Snapshot& snapshot) const {
  if (!selection_.picked) return nullptr;
  const ThreadRef picked = selection_.Resolve(snapshot);
  return &snapshot.thread(picked.block, picked.thread);
}

// The lesson's actions, with the views' own among them where F1 has always listed them.
void LessonPage::RegisterActions(ActionRegistry& registry) {
  lesson_.RegisterRunActions(registry);
  registry.Add({"toggle-numba", "Numba beside the CUDA source",
                "Show the tiling notebook's Numba transcription beside 02_tiled.cu, line by line, or the CUDA source alone.",
                {{GLFW_KEY_L, 0}}, [this](const std::string&) -> std::optional<std::string> {
                  source_side_by_side_ = !source_side_by_side_;
                  return std::nullopt;
                }});
  lesson_.RegisterEditActions(registry);
  RegisterViewActions(registry);
  lesson_.tour().RegisterActions(registry);
  RegisterGuideViewActions(registry);
  your_kernel_.RegisterActions(registry);
}

std::optional<std::string> LessonPage::OpenKernel(const std::string& path, const sim::KernelLessonOptions& options) {
  lesson_.SetKernelOptions(options);
  return lesson_.OpenKernel(path);
}

// The actions of the Threads and Timeline panels.
void LessonPage::RegisterViewActions(ActionRegistry& registry) {
  registry.Add({"run-until", "Run to breakpoint",
                "Run until: arrive, release, \"phase P\", \"thread BLOCK THREAD\" or hazard.", {},
                [this](const std::string& argument) -> std::optional<std::string> {
                  sim::Breakpoint breakpoint;
                  if (auto error = ParseBreakpoint(argument, lesson_.simulation(), breakpoint)) return error;
                  const std::int64_t steps = lesson_.RunUntil(breakpoint);
                  timeline_.NoteRun(lesson_.simulation(), argument, steps);
                  return std::nullopt;
                }});
  registry.Add({"select-thread", "Select thread",
                "Follow thread \"BLOCK THREAD\" in the Threads, Shared tiles and source views; no argument: the "
                "thread that ran last.", {},
                [this](const std::string& argument) {
                  return selection_.Pick(argument, lesson_.simulation().snapshot());
                }});
}

// The Guide panel's own actions, the tour's lecturer switch and leaving it, and the command
// that reopens the view.
void LessonPage::RegisterGuideViewActions(ActionRegistry& registry) {
  registry.Add({"guide-pick-cell", "Pick a cell for the answer",
                "Add a cell (\"As[1][0]\") to the answer being typed, or take it out again: what a click on a cell "
                "of Matrices or Shared tiles does while a question asks for cells.",
                {}, [this](const std::string& cell) -> std::optional<std::string> {
                  if (!sim::ParseCellRef(cell)) return "guide-pick-cell wants a cell like As[1][0], got \"" + cell + "\"";
                  guide_panel_.ToggleCell(cell);
                  return std::nullopt;
                }});
  registry.Add({"guide-answer-field", "Type the answer", "Put the keys in the Guide panel's answer field.",
                {{GLFW_KEY_ENTER, 0}}, [this](const std::string&) -> std::optional<std::string> {
                  if (!lesson_.tour().HasTour()) return std::string("this lesson has no tour");
                  guide_panel_.FocusAnswer();
                  return std::nullopt;
                }});
  registry.Add({"guide-lecturer", "Lecturer mode (ask the class)",
                "Ask the class instead of a student: each question in large type with no answer field, revealed by "
                "V; the stops go on without answers. T again gives the questions back to a student.",
                {{GLFW_KEY_T, 0}}, [this](const std::string&) -> std::optional<std::string> {
                  lesson_.tour().ToggleLecturer();
                  return std::nullopt;
                }});
  // The View menu's show/hide items, by name, for scripts: the same flag the menu flips.
  registry.Add({"panel-toggle", "Show or hide a panel",
                "Show or hide a panel by its key (counters, race_lab, kernel_source, ...) in the current mode, as "
                "its View menu item does.",
                {}, [this](const std::string& key) -> std::optional<std::string> {
                  for (PanelRow& row : panels_.Rows()) {
                    if (row.Key() != key) continue;
                    bool& open = row.Open(presenting_);
                    open = !open;
                    return std::nullopt;
                  }
                  return "panel-toggle wants a panel's key such as counters, got \"" + key + "\"";
                }});
  registry.Add({"lesson-list", "Lessons\u2026",
                "The lessons by name, each with its score and the stop reached: \u2191/\u2193 and Enter open one, "
                "Esc closes the list.",
                {{GLFW_KEY_O, GLFW_MOD_CONTROL}}, [this](const std::string&) -> std::optional<std::string> {
                  if (lesson_list_.open) {
                    lesson_list_.open = false;
                  } else {
                    ShowLessonList();
                  }
                  return std::nullopt;
                }});
  registry.Add({"guide-leave", "Leave the tour",
                "Every panel back at its place and the Guide folded away, also for lessons opened later; N or P "
                "returns to the tour.",
                {{GLFW_KEY_G, 0}}, [this](const std::string&) -> std::optional<std::string> {
                  lesson_.tour().LeaveTour();
                  return std::nullopt;
                }});
  // A page has no command line: there the view is shared as its link.
  if constexpr (browser_page::kInBrowser) {
    registry.Add({"copy-link", "Copy link",
                  "Put this view's link (lesson, tour stop, step) on the clipboard: it opens the same view.",
                  {{GLFW_KEY_C, GLFW_MOD_CONTROL | GLFW_MOD_SHIFT}}, [this](const std::string&) {
                    return CopyView([](const ReopenedView& view) { return browser_page::FullLink(ReopenLink(view)); });
                  }});
  } else {
    registry.Add({"copy-command", "Copy as command",
                  "Put the command that reopens this view (lesson, tour stop, step) on the clipboard.",
                  {{GLFW_KEY_C, GLFW_MOD_CONTROL | GLFW_MOD_SHIFT}}, [this](const std::string&) { return CopyView(ReopenCommand); }});
  }
}

void LessonPage::ShowLessonList() {
  lesson_list_view_ = lesson_.tour().LessonList();
  lesson_list_.Open(lesson_list_view_);
}

void LessonPage::ShowStop(const sim::TourStop& stop) {
  const sim::Snapshot now = lesson_.simulation().snapshot();
  selection_.picked.reset();
  if (stop.block) {
    const sim::Geometry& g = now.geometry();
    for (std::size_t b = 0; b < now.blocks().size(); ++b) {
      if (now.blocks()[b].bx != stop.block->x || now.blocks()[b].by != stop.block->y) continue;
      const int thread = stop.thread ? stop.thread->y * g.tn + stop.thread->x : 0;
      selection_.picked = ThreadRef{static_cast<int>(b), thread};
    }
  }
  matrices_.tour_cells = shared_tiles_.tour_cells = stop.cells;
  kernel_source_.tour_lines = stop.lines;
  if (!stop.panels.empty()) ShowPanels(stop.panels);
}

// The Guide and the stop's panels, nothing else; the View menu brings any other back.
void LessonPage::ShowPanels(const std::vector<std::string>& ids) {
  std::vector<PanelRow*> shown;
  // "live_gpu" is the Live GPU page: the stop ends there (the shell switches pages on its action).
  show_live_page_ = std::find(ids.begin(), ids.end(), "live_gpu") != ids.end();
  for (const std::string& id : ids) {
    for (PanelRow& row : panels_.Rows()) {
      if (row.Key() == id && row.Key() != "guide") shown.push_back(&row);
    }
  }
  // The matrices take the largest place when shown (the others keep the stop's order): they
  // are what most stops point at, and their cells shrink first.
  std::stable_partition(shown.begin(), shown.end(), [](const PanelRow* row) { return row->Key() == "matrices"; });
  std::vector<std::string> keys;
  for (const PanelRow* row : shown) keys.push_back(row->Key());
  const std::vector<PanelRect> normal = StopRects(keys, kGuideColumn, false);
  const std::vector<PanelRect> presenting = StopRects(keys, kShowGuideColumn, true, MatricesAcross());
  stop_slots_.clear();
  for (std::size_t i = 0; i < shown.size(); ++i) stop_slots_.emplace_back(normal[i], presenting[i]);
  for (PanelRow& row : panels_.Rows()) {
    row.open = row.open_presenting = row.Key() == "guide";
    row.slot = &kGuideSlot;
  }
  for (std::size_t i = 0; i < shown.size(); ++i) {
    shown[i]->open = shown[i]->open_presenting = true;
    shown[i]->slot = &stop_slots_[i];
  }
  presented_keys_ = PresentedKeys();
  relayout_ = true;
}

int LessonPage::MatricesAcross() const {
  const std::vector<float>* reference = lesson_.Reference();
  return reference ? MatricesPanel::CharactersAcross(lesson_.simulation().snapshot(), *reference) : 0;
}

std::vector<std::string> LessonPage::PresentedKeys() const {
  std::vector<std::string> keys;
  for (const PanelRow& row : panels_.Rows()) {
    if (row.open_presenting) keys.push_back(row.Key());
  }
  return keys;
}

// Presentation folds most panels away; one the View menu brings back used to float at its
// normal place in small type over the others. Instead the open panels tile the area again as
// a stop's do (the Guide, when open, as the left column), and Reset layout keeps that tiling.
// Their normal places stay as they were.
void LessonPage::FollowPresentedPanels(const FrameContext& frame) {
  if (!frame.presentation) {
    presented_keys_.clear();
    return;
  }
  const std::vector<std::string> keys = PresentedKeys();
  if (presented_keys_.empty()) presented_keys_ = keys;  // presentation just began: its own layout
  if (keys == presented_keys_) return;
  presented_keys_ = keys;
  std::vector<PanelRow*> shown;
  bool guide = false;
  for (PanelRow& row : panels_.Rows()) {
    if (!row.open_presenting) continue;
    if (row.Key() == "guide") {
      guide = true;
      row.slot = &kGuideSlot;
    } else {
      shown.push_back(&row);
    }
  }
  std::stable_partition(shown.begin(), shown.end(), [](const PanelRow* row) { return row->Key() == "matrices"; });
  std::vector<std::string> tiled;
  for (const PanelRow* row : shown) tiled.push_back(row->Key());
  const std::vector<PanelRect> rects = StopRects(tiled, guide ? kShowGuideColumn : 0.0f, true, MatricesAcross());
  joined_slots_.clear();
  joined_slots_.reserve(shown.size());  // the rows point into it
  for (std::size_t i = 0; i < shown.size(); ++i) joined_slots_.emplace_back(shown[i]->slot->For(false), rects[i]);
  for (std::size_t i = 0; i < shown.size(); ++i) shown[i]->slot = &joined_slots_[i];
  relayout_ = true;
}

void LessonPage::FollowStudentLayout() {
  const bool student = lesson_.Student() != nullptr;
  if (student == student_layout_) return;
  student_layout_ = student;
  std::vector<PanelRow>& rows = panels_.Rows();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const PanelSlot* yours = YourKernelSlot(rows[i].Key());
    // Leaving the kernel, a row a lesson's tour stop has placed since keeps that place.
    if (yours == nullptr || (!student && rows[i].slot != yours)) continue;
    rows[i].slot = student ? yours : default_slots_[i];
    rows[i].open_presenting = rows[i].slot->Presented();
    if (const std::optional<bool> open = OpenForYourKernel(rows[i].Key())) rows[i].open = student == *open;
  }
  presented_keys_ = PresentedKeys();
  relayout_ = true;
}

void LessonPage::LeaveTour() {
  std::vector<PanelRow>& rows = panels_.Rows();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    rows[i].slot = default_slots_[i];
    rows[i].open = rows[i].Key() != "guide";
    rows[i].open_presenting = rows[i].slot->Presented() && rows[i].Key() != "guide";
  }
  matrices_.tour_cells.clear();
  shared_tiles_.tour_cells.clear();
  kernel_source_.tour_lines.clear();
  student_layout_ = false;  // each row at its own slot: a student's kernel on show takes its layout again
  presented_keys_ = PresentedKeys();
  relayout_ = true;
}

// The view on the clipboard, spelt by `spell`: a command, or in a browser a link.
std::optional<std::string> LessonPage::CopyView(std::string (*spell)(const ReopenedView&)) {
  ReopenedView view;
  if (auto refused = lesson_.tour().ViewToReopen(view)) return refused;
  copied_command_ = spell(view);
  browser_page::CopyToClipboard(copied_command_);
  notifications_.Add(Severity::kInfo, "copied to the clipboard: " + copied_command_);
  return std::nullopt;
}

// The lesson and its stop, not the step: stepping would rewrite the address each frame, and
// Back is to go to the last stop, not the last step.
void LessonPage::ShowLinkInAddressBar() {
  if (Opening()) return;
  ReopenedView view;
  if (lesson_.tour().ViewToReopen(view)) return;  // an edited lesson has no link: the last one stays
  view.step.reset();
  if (shown_view_ && shown_view_->lesson == view.lesson && shown_view_->stop == view.stop) return;
  browser_page::ShowLink(ReopenLink(view), /*new_entry=*/shown_view_.has_value());
  shown_view_ = view;
}

// The lesson page's panels, each once: its title, its slot, and what it is given to draw.
std::vector<PanelRow> LessonPage::PanelRows() {
  const auto simulation = [this]() -> const sim::Simulation& { return lesson_.simulation(); };
  return {
      {"Controls", &kControlsSlot,
       [this, simulation](const FrameContext& frame) {
         const StudentKernel* student = lesson_.Student();
         const YourKernelView view = student != nullptr ? student->View() : YourKernelView{};
         controls_.Draw(frame, simulation(), lesson_.WholeRun(), lesson_.play(), lesson_.draft(), student ? &view : nullptr);
       }},
      {"Counters", &kCountersSlot,
       [this, simulation](const FrameContext& frame) {
         if (lesson_.Student()) return your_kernel_.DrawCounters();
         counters_.Draw(simulation(), lesson_.WholeRun(), lesson_.comparison().Current(), frame.presentation);
       }},
      {"Matrices", &kMatricesSlot,
       [this, simulation](const FrameContext& frame) {
         const std::vector<float>* reference = lesson_.Reference();
         if (!reference) {
           gui::TextWrapped("A, B and C are shown once the whole run is counted (see Controls).");
           return;
         }
         matrices_.Draw(frame, simulation().snapshot(), *reference, lesson_.generation());
       }},
      {"Shared tiles", &kSharedTilesSlot,
       [this, simulation](const FrameContext& frame) {
         const sim::Snapshot now = simulation().snapshot();
         if (lesson_.Student()) return your_kernel_.DrawSharedArrays(selection_.Resolve(now));
         shared_tiles_.Draw(frame, now, selection_.Resolve(now));
       }},
      {"Threads", &kThreadsSlot,
       [this, simulation](const FrameContext& frame) { threads_.Draw(frame, simulation().snapshot(), selection_); }},
      {"Kernel source", &kKernelSourceSlot,
       [this, simulation](const FrameContext& frame) {
         const sim::Snapshot now = simulation().snapshot();
         if (const StudentKernel* student = lesson_.Student()) return your_kernel_.DrawSource(frame, PickedThread(now), *student);
         kernel_source_.Draw(frame, now, PickedThread(now), source_side_by_side_);
       }},
      {"Hazards", &kHazardsSlot,
       [this, simulation](const FrameContext& frame) {
         if (const StudentKernel* student = lesson_.Student()) return your_kernel_.DrawFindings(frame, *student);
         hazards_.Draw(frame, simulation().snapshot());
       }},
      {"Race lab", &kRaceLabSlot,
       [this, simulation](const FrameContext& frame) {
         if (lesson_.Student()) return YourKernelViews::DrawOnlyForLessons("switches the barriers of the built-in kernel");
         race_lab_panel_.Draw(frame, simulation(), lesson_.race_lab());
       }},
      {"Occupancy", &kOccupancySlot,
       [this](const FrameContext&) {
         if (lesson_.Student()) return YourKernelViews::DrawOnlyForLessons("works out the built-in kernel's blocks per SM");
         occupancy_panel_.Draw(lesson_.Occupancy());
       }},
      {"Narration", &kNarrationSlot, [this](const FrameContext& frame) { narration_.Draw(frame.presentation, lesson_.WholeRun()); }},
      {"Timeline", &kTimelineSlot,
       [this, simulation](const FrameContext& frame) {
         timeline_.Draw(frame, simulation(), lesson_.WholeRun(), selection_.Resolve(simulation().snapshot()));
       }},
      {"Guide", &kGuideSlot,
       [this](const FrameContext& frame) {
         if (const StudentKernel* student = lesson_.Student()) return MilestonesView::Draw(student->Milestones());
         guide_panel_.Draw(frame, lesson_.tour().Guide());
       }},
  };
}

void LessonPage::Update() {
  // The Controls fields' edits, applied between frames as a queued action is: the user acted,
  // so the message on show has been seen, and a refusal takes its place.
  for (const sim::LessonEdit& edit : controls_.TakeEdits()) {
    notifications_.Dismiss();
    if (auto refused = lesson_.Edit({edit})) notifications_.Add(Severity::kError, *refused);
  }
  lesson_.Update(ImGui::GetIO().DeltaTime);
  if constexpr (browser_page::kInBrowser) ShowLinkInAddressBar();
}

// Clicks on cells answer a cells question while it waits; otherwise they do what they always do.
void LessonPage::SetCellPicking() {
  matrices_.pick_space = shared_tiles_.pick_space = lesson_.tour().AnswerSpace();
}

void LessonPage::Draw(const FrameContext& frame) {
  if (show_live_page_) {
    frame.actions.Push("live-shipped");  // a Live GPU page action: the shell shows that page
    show_live_page_ = false;
  }
  SetCellPicking();
  lesson_.Play(ImGui::GetIO().DeltaTime);
  // The narration follows the run whether or not its panel is open, so its scrollback has no gaps.
  narration_.Update(lesson_.simulation().snapshot());
  presenting_ = frame.presentation;
  FollowStudentLayout();
  FollowPresentedPanels(frame);
  if (relayout_) {
    FrameContext placed = frame;  // a new stop lays its panels out afresh
    placed.reset_layout = true;
    relayout_ = false;
    panels_.Draw(placed);
  } else {
    panels_.Draw(frame);
  }
  lesson_list_.Draw(frame, lesson_list_view_);
  your_kernel_.DrawPopup(frame);
  if (const auto preparing = lesson_.Preparing()) {
    GuidePanel::DrawPreparation(frame, {preparing->source, preparing->stops, preparing->done, preparing->cancelling});
  }
}

void LessonPage::DumpState(nlohmann::json& state) const {
  lesson_.DumpState(state);
  const sim::Simulation& simulation = lesson_.simulation();
  const sim::Snapshot snapshot = simulation.snapshot();
  if (const StudentKernel* student = lesson_.Student()) {
    your_kernel_.DumpState(state, PickedThread(snapshot), *student);
  } else {
    state["lesson"]["counters"] = CountersPanel::Figures(simulation, lesson_.comparison().Current());
    state["kernel_source"] = KernelSourcePanel::Describe(snapshot, PickedThread(snapshot), source_side_by_side_);
    state["kernel_source"].update(kernel_source_.DescribeTourLines(snapshot));
    state["hazards"] = HazardsPanel::Describe(snapshot);
  }
  state["occupancy"] = OccupancyPanel::Describe(lesson_.Occupancy());
  nlohmann::json& panels = state["lesson_panels"];
  shared_tiles_.DumpState(panels);
  matrices_.DumpState(panels);
  threads_.DumpState(panels);
  narration_.DumpState(panels);
  timeline_.DumpState(panels);
  nlohmann::json& guide = state["guide"];
  guide = guide_panel_.Describe(lesson_.tour().Guide());
  lesson_.tour().DumpState(guide);
  guide["shown_panels"] = nlohmann::json::array();
  for (const PanelRow& row : panels_.Rows()) {
    if (row.open) guide["shown_panels"].push_back(row.Key());
  }
  guide["selected"] = selection_.picked ? nlohmann::json{{"block", selection_.picked->block},
                                                         {"thread", selection_.picked->thread}}
                                        : nlohmann::json(nullptr);
  guide["copied_command"] = copied_command_;
  state["lesson_list"] = lesson_list_.Describe(lesson_list_view_);
}

// While a tour is prepared, a script's next line waits for it (as a student waits for the
// guide), except the line that cancels it and those that only look (a screenshot, a dump).
bool LessonPage::HoldsScript(const std::string& action) const {
  return lesson_.Preparing().has_value() && action != "guide-cancel" && action != "screenshot" &&
         action != "dump-state";
}

}  // namespace gui
