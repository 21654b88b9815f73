// source_error.h — where in a kernel file something was found, and the refusal the front end
// raises for what it cannot read or does not support.
//
// Inside the front end a refusal is thrown from deep in the recursive parser and caught once
// at its entry (front_end.cpp), which hands it out as a value: callers never see the exception.
#pragma once
#include <stdexcept>
#include <string>

namespace sim::cuda {

struct SourcePos {
  int line = 1;
  int col = 1;
};

class Refusal : public std::runtime_error {
 public:
  Refusal(SourcePos pos, const std::string& message) : std::runtime_error(message), pos_(pos) {}
  SourcePos pos() const { return pos_; }

 private:
  SourcePos pos_;
};

[[noreturn]] inline void Refuse(SourcePos pos, const std::string& message) { throw Refusal(pos, message); }

}  // namespace sim::cuda
