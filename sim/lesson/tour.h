// tour.h — a lesson's guided tour: ordered stops, each saying where in the run to go, what
// to focus on, a short text whose figures are filled from the model, an optional quotation of
// a source document (always shown as that document's claim, beside what the model counts) and
// an optional predict-then-reveal question.
//
// A lesson file names model queries, never their results: "{reads.tiled} global reads" is
// filled by running the model, and a question's right answer is the value of its query at
// that stop. The queries are a fixed set (Queries()); a query may carry arguments as
// key=value words ("c.sum row=0 col=0 phase=1"), and any argument that is a lesson field
// ("tile=16", "barrier2=off") asks the same question of the lesson so edited, run by the model
// alongside (the lesson on screen is not touched).
//
// Numbering as the app shows it: phases count from 1 ("phase 1" is t = 0), blocks and threads
// are (x, y) as blockIdx and threadIdx, matrix and tile cells are [row][col] from 0. Steps are
// the model's scheduler steps (step 0: nothing has run).
//
// Plain C++17: the GUI (app/pages) and `tilescope tour` read the same prepared stops.
// tour.cpp: names; tour_prepare.cpp: preparing; tour_answers.cpp: answers; tour_model.cpp: the
// query registry and TourModel; tour_file_reader.cpp and tour_file_writer.cpp: the JSON.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/model/instruction.h"
#include "sim/lesson/lesson_config.h"

namespace sim {

// ---- What a tour file holds --------------------------------------------------------------

// The panels a stop may show, by the stable ids the app's panel table carries (the rest fold
// away while the stop is on screen). "matrices", "shared_tiles", "kernel_source", "narration",
// "counters", "threads", "hazards", "race_lab", "timeline", "occupancy", "guide", "controls";
// and "live_gpu", which is a page, not a panel: the stop ends on the Live GPU page (without a
// GPU showing the saved H100 sweep shipped as assets/results/h100-bench.json, and saying so).
const std::vector<std::string>& TourPanelIds();
bool IsTourPanelId(std::string_view id);

// A block or thread as CUDA names it: (x, y).
struct Coordinates2 {
  int x = 0;
  int y = 0;
  bool operator==(const Coordinates2& o) const { return x == o.x && y == o.y; }
};

// Where a stop goes in the run.
struct TourPosition {
  enum class Kind : std::uint8_t {
    kStep,            // step `step` (0: before anything ran)
    kBarrierRelease,  // just after block `block`'s barrier `barrier` (1 or 2) releases in phase `phase`
    kPhaseStart,      // just after block `block` runs its first instruction of phase `phase`
    kFirstHazard,     // just after the step that reports the run's first hazard
    kEnd,             // the run's end
  };
  Kind kind = Kind::kStep;
  std::int64_t step = 0;
  Coordinates2 block{};
  int phase = 1;    // 1-based
  int barrier = 1;  // 1: after the loads, 2: after the products
};
const char* Name(TourPosition::Kind kind);  // "step", "barrier_release", "phase_start", "first_hazard", "end"

// A cell to highlight or to answer with: A, B and C by element; As and Bs of the focused block
// (a cells question: of the block its query names). Spelled "C[0][0]", "As[1][0]" in files.
enum class CellSpace : std::uint8_t { kA, kB, kC, kAs, kBs };
struct CellRef {
  CellSpace space = CellSpace::kC;
  int row = 0;
  int col = 0;
  bool operator==(const CellRef& o) const { return space == o.space && row == o.row && col == o.col; }
  bool operator<(const CellRef& o) const;
};
const char* Name(CellSpace space);  // "A", "B", "C", "As", "Bs"
// "As[1][0]" -> the cell; nullopt when the text is not one (bounds are checked by the tour check).
std::optional<CellRef> ParseCellRef(std::string_view text);
std::string CellText(const CellRef& cell);

// One figure a source document states or a measurement records, and the query that counts the same thing
// ("512" for reads.naive): the app shows the model's figure beside it; a test asserts the
// comparison comes from the model.
struct Claim {
  double figure = 0;
  std::string query;
};

// A quotation of a source document, shown as that document's claim, never as the app's. The
// tour file's key is "seed" (the documents the project grew from; docs/glossary.md names them).
struct SeedQuote {
  std::string seed;  // the document by name: "the 4×4 walkthrough exercise"
  std::string text;  // the words as the document prints them
  std::vector<Claim> claims;
};

// Lines of a results file's table, shown as a table: the columns in words a student reads
// ("elements of C differing, trial by trial"), each row the file's line cut into its cells.
struct MeasuredTable {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;  // as many cells as columns each
};

// A measurement committed with the project, quoted from its results file (a GPU's figures are
// measured, never typed into a stop's text): shown as that file's, with the model's count
// beside each claimed figure. Its lines are quoted as they are, or as tables whose rows, their
// cells joined by spaces, are the file's lines. A test holds every quoted line to the file
// (whitespace runs read as one space), so a quotation cannot drift from what was measured.
struct Measurement {
  std::string file;    // the results file, from the repository's root: "docs/results/h100-race-grid-2026-11-23.txt"
  std::string device;  // the GPU as the file names it: "NVIDIA H100 80GB HBM3"
  std::vector<std::string> lines;  // the file's lines quoted as they are
  std::vector<MeasuredTable> tables;
  std::vector<Claim> claims;

  // Every line of the file this quotes: the lines, then each table row's cells joined by spaces.
  std::vector<std::string> QuotedLines() const;
};

enum class QuestionKind : std::uint8_t { kNumber, kChoice, kCells };
const char* Name(QuestionKind kind);  // "number", "choice", "cells"

// A choice of a choice question. It is right when `value` equals the query's result (a
// number within the question's tolerance, or the same text); exactly one must be, and the
// tour check refuses the lesson otherwise. `seed` set: the choice quotes that document's figure.
struct Choice {
  std::string text;
  std::string value;  // compared with the query's result: "2", "RAW", "wrong"
  std::string seed;
};

struct Question {
  QuestionKind kind = QuestionKind::kNumber;
  std::string prompt;    // placeholders allowed
  std::string query;     // "reads.tiled", "c.sum row=0 col=0 phase=1": the right answer
  double tolerance = 0;  // kNumber: |answer - right| <= tolerance counts as right
  std::vector<Choice> choices;  // kChoice
  std::string why;       // shown with the reveal; placeholders allowed
};

struct TourStop {
  std::string title;     // a few words for "stop 3 of 12: the first barrier"
  // Lesson fields this stop changes, as the lesson grammar reads them ("barrier2=off",
  // "guard=off tiles=floor"): the stop shows the file's lesson so edited (PreparedStop::lesson),
  // and its position and queries are the edited lesson's. Empty: the file's lesson.
  std::string edits;
  TourPosition at;
  std::optional<Coordinates2> block;   // select this block ...
  std::optional<Coordinates2> thread;  // ... and this thread of it
  std::vector<CellRef> cells;          // highlighted
  std::vector<Op> lines;               // kernel source lines by the kernel's `// model:` names
  std::vector<std::string> panels;     // TourPanelIds(); empty: leave the layout as it is
  std::string text;                    // placeholders "{query args}" filled from the model
  std::optional<SeedQuote> quote;
  std::optional<Measurement> measured;
  std::optional<Question> question;
};

struct Tour {
  std::vector<TourStop> stops;
  bool empty() const { return stops.empty(); }
};

// A lesson file's "tour" value read into `tour`: an empty string, or the first problem named
// by stop and key ("tour stop 2: \"cells\"[1] = \"Q[0][0]\" is not a cell such as As[1][0]").
// Unknown keys become warnings. Queries and panels are checked by name here; what needs the
// model (a step past the end, an answer no choice holds) is PrepareTour's.
std::string ReadTour(const nlohmann::json& value, Tour& tour, std::vector<std::string>& warnings);
nlohmann::json TourToJson(const Tour& tour);

// ---- The model queries --------------------------------------------------------------------

enum class QueryKind : std::uint8_t { kNumber, kText, kCells };

struct QueryInfo {
  const char* name;       // "reads.tiled"
  QueryKind kind;
  const char* arguments;  // "row col phase" (besides lesson fields); "" for none
  const char* help;       // one line: what the model counts
};
// Every query a tour may name, in one table (help, `tilescope tour --queries`, the checks).
const std::vector<QueryInfo>& Queries();
const QueryInfo* FindQuery(std::string_view name);

// A query as written: its name and key=value arguments, in order.
struct QueryCall {
  std::string name;
  std::vector<std::pair<std::string, std::string>> arguments;
};
// "c.sum row=0 col=0 phase=1" -> the call; the error names the unknown query or argument.
struct QueryParse {
  QueryCall call;
  std::string error;
};
QueryParse ParseQueryCall(std::string_view text);

// A query's result: a number, a text (a tile "[[1,2],[5,6]]", "RAW", C[0][0]'s products written
// out), or a set of cells; `text` always holds it as shown.
struct QueryValue {
  QueryKind kind = QueryKind::kNumber;
  double number = 0;
  std::string text;
  std::vector<CellRef> cells;  // sorted
};
// A number as a tour shows it: whole numbers without a point, others to 3 significant digits.
std::string FormatNumber(double value);

// ---- Running a tour against the model -----------------------------------------------------

// What one tour may ask of the model, all its stops, their edited lessons and the variants
// their queries ask about together: model time (thread-instructions run, about two seconds of
// one core) and memory (what the runs it keeps hold, and the largest one running). Each run is
// charged before it starts, so a tour past the budget is refused before the work, and the
// stop that crosses it is named (a 13 KB tour of 200 stops at 200 sizes once ran 159 s and
// grew to 7.7 GB, as each edited lesson had a budget of its own).
constexpr std::uint64_t kMaxTourInstructions = std::uint64_t{1} << 27;
constexpr std::uint64_t kMaxTourBytes = std::uint64_t{512} << 20;  // several times the shipped tours

class TourBudget {
 public:
  // The fuzzer gives a smaller one, so that its inputs reach it within their time.
  explicit TourBudget(std::uint64_t max_instructions = kMaxTourInstructions, std::uint64_t max_bytes = kMaxTourBytes)
      : max_instructions_(max_instructions), max_bytes_(max_bytes) {}
  // Charges a run of `instructions` that holds `kept_bytes` until the tour is ready and
  // `running_bytes` while it runs; nullopt, or why it would pass the budget (nothing charged).
  std::optional<std::string> Charge(std::uint64_t instructions, std::uint64_t kept_bytes, std::uint64_t running_bytes);
  std::uint64_t instructions() const { return instructions_; }
  std::uint64_t kept_bytes() const { return kept_bytes_; }

 private:
  std::uint64_t max_instructions_;
  std::uint64_t max_bytes_;
  std::uint64_t instructions_ = 0;
  std::uint64_t kept_bytes_ = 0;
};

// The model's answers for one lesson: it runs its own simulations (the lesson, and the edited
// variants queries ask for), so it may live on a worker thread; each is run once and kept.
class TourModel {
 public:
  // `cancel` (may be null): once it turns true, the model's runs stop where they are and every
  // call fails with kTourCancelled, so a worker preparing a tour answers Cancel at once.
  // `budget` (may be null: one of its own) is shared by every model of one tour.
  explicit TourModel(const LessonConfig& lesson, const std::atomic<bool>* cancel = nullptr,
                     TourBudget* budget = nullptr);
  ~TourModel();
  TourModel(TourModel&&) noexcept;
  TourModel& operator=(TourModel&&) noexcept;

  const LessonConfig& lesson() const;
  std::int64_t TotalSteps();
  // The step a position names in this lesson; the error says why it names none ("step 500 is
  // past the end (212 steps)", "block (0,0) has no phase 3: the lesson has 2").
  std::optional<std::int64_t> Resolve(const TourPosition& position, std::string* error);
  // A query's value with the lesson at `step` (queries about the whole run ignore the step).
  std::optional<QueryValue> Evaluate(const QueryCall& call, std::int64_t step, std::string* error);
  std::optional<QueryValue> Evaluate(std::string_view query, std::int64_t step, std::string* error);
  // `text` with every "{query args}" replaced by its value ("{{" and "}}" stand for braces).
  std::optional<std::string> Fill(std::string_view text, std::int64_t step, std::string* error);

 private:
  std::optional<std::int64_t> ResolveStep(const TourPosition& position, std::string* error);

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The error of a tour preparation (or a TourModel call) stopped by its cancel flag.
extern const char* const kTourCancelled;

// A source document's or a measurement's figure beside the model's.
struct CheckedClaim {
  Claim claim;
  double model = 0;  // what the query counts
  bool agrees = false;
};

// A stop with everything the model says about it, ready to draw.
struct PreparedStop {
  LessonConfig lesson;  // what this stop runs: the file's lesson, with the stop's edits if any
  std::int64_t step = 0;
  std::string title;
  std::string text;    // filled
  std::optional<SeedQuote> quote;
  std::vector<CheckedClaim> claims;  // one per quote claim, in order
  // The quote states this stop's own answer (a claim counts the question's query, or its
  // words hold the answer): it is shown only once the answer is revealed, or with questions
  // off, so the stop does not give its answer away.
  bool quote_after_reveal = false;
  std::optional<Measurement> measured;
  std::vector<CheckedClaim> measured_claims;  // one per measurement claim, in order
  bool measured_after_reveal = false;         // as quote_after_reveal, for the measurement
  bool has_question = false;
  std::string prompt;  // filled
  std::string why;     // filled
  QueryValue answer;   // the right answer at this stop
  int right_choice = -1;  // kChoice: index into the question's choices
};

struct PreparedTour {
  std::vector<PreparedStop> stops;  // one per stop, when error is empty
  std::string error;                // the first problem: "tour stop 3 (\"the barrier\"): ..."
  bool ok() const { return error.empty(); }
};

// Resolves every stop, fills every text and computes every answer; the first stop that
// cannot be prepared is the error (a lesson file with such a tour does not load). `cancel`
// (may be null) stops it early, within a model run, with error kTourCancelled; `stops_done`
// (may be null) counts the stops prepared so far, for a progress bar.
// `budget` (may be null: the default TourBudget) covers every stop.
PreparedTour PrepareTour(const LessonConfig& lesson, const Tour& tour, const std::atomic<bool>* cancel = nullptr,
                         std::atomic<int>* stops_done = nullptr, TourBudget* budget = nullptr);

// Whether `text` shows `answer` where a student would read it before the reveal: the answer's
// words as a whole word (a number as a run of digits not part of a longer one, a cell such
// as "As[0][1]", a word such as "RAW").
bool TextStatesAnswer(std::string_view text, const QueryValue& answer);
// Whether two query calls ask the same thing (the same name and arguments, in any order).
bool SameQuery(std::string_view a, std::string_view b);

// ---- Answering ----------------------------------------------------------------------------

// What a student gave: a number, a choice (index into choices) or a set of cells.
struct StudentAnswer {
  double number = 0;
  int choice = -1;
  std::vector<CellRef> cells;
};
// "64", "2" (a choice, counted from 1 as the app lists them), "As[1][0] As[1][1]": the error
// names what could not be read.
struct AnswerParse {
  std::optional<StudentAnswer> answer;
  std::string error;
};
AnswerParse ParseAnswer(const Question& question, std::string_view text);

struct Reveal {
  bool correct = false;
  std::string right;    // the right answer as shown: "64", "2×", "As[1][1]"
  std::string student;  // the student's own, as shown
  std::string why;      // the stop's filled why
};
Reveal CheckAnswer(const Question& question, const PreparedStop& prepared, const StudentAnswer& answer);

}  // namespace sim
