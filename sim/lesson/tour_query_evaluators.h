// tour_query_evaluators.h — the queries whose answer takes more than a line: the hazards and
// wrong cells of a run, C's sums and products, the tiles and what a thread read from them, bank
// ways, a warp-instruction's sectors, occupancy. The registry (tour_queries.cpp) names them.
#pragma once
#include <optional>

#include "sim/lesson/tour_query_context.h"
#include "sim/model/occupancy.h"

namespace sim::queries {

std::optional<QueryValue> HazardKinds(Asked& q);
std::optional<QueryValue> WrongCells(Asked& q);
std::optional<QueryValue> CValue(Asked& q);
std::optional<QueryValue> CSum(Asked& q);
std::optional<QueryValue> CPhaseSum(Asked& q);
std::optional<QueryValue> CExpression(Asked& q);
std::optional<QueryValue> Tile(Asked& q, TileId id);
std::optional<QueryValue> SharedRead(Asked& q);
std::optional<QueryValue> BankWaysOf(Asked& q);
std::optional<QueryValue> AccessSectors(Asked& q);
// Occupancy of the lesson's kernel on a classroom GPU (the H100 unless gpu= names another).
std::optional<Occupancy> OccupancyAsked(Asked& q);

std::optional<QueryValue> OccupancyBy(Asked& q);
std::optional<QueryValue> Registers(Asked& q);

template <typename Read>
std::optional<QueryValue> FromOccupancy(Asked& q, Read read) {
  const std::optional<Occupancy> occupancy = OccupancyAsked(q);
  if (!occupancy) return std::nullopt;
  return read(*occupancy);
}


}  // namespace sim::queries
