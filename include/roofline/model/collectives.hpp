#pragma once
// The collectives, one entry each (docs/multichip.md, "What a collective
// costs"): the name a `collective` statement and the `collective` column
// use, and the traffic that gives its received bytes and its latency floor.
// The checker's shard plans read the names; engine/network.cpp turns the
// traffic into bytes and seconds. Adding a collective: its kind, its entry
// here, its shape rule in Checker::plan_collective (check_shard_plans.cpp).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace roofline::model {

enum class CollectiveKind : std::uint8_t { allgather, reducescatter, allreduce, alltoall, sendrecv };

// How the bytes move over N chips, on V bytes per chip (network.cpp owns the
// formulas of each, on every kind of link):
// - gather: each chip receives the other N - 1 shards, (N-1)/N V, in N - 1
//   steps (ceil(N/2) hops on an ICI ring); a ReduceScatter is the same
//   traffic reversed.
// - exchange: each chip sends every other one its own part of the array,
//   (N-1) V / N^2, in one step (floor(N/2) hops on an ICI ring); V is the
//   whole array over the collective's axes, N times one chip's shard.
// - point_to_point: each chip sends its whole V to its neighbour on the axis
//   and receives V from the other one, V bytes, in one step of one hop (a
//   pipeline's stage sending its activations to the next stage).
enum class Traffic : std::uint8_t { gather, exchange, point_to_point };

struct CollectiveInfo {
    CollectiveKind kind;
    std::string_view name;
    Traffic traffic;
    int passes;  // how many times the traffic runs, latency floors included
};

// In the order of CollectiveKind.
inline constexpr CollectiveInfo collective_table[] = {
    {CollectiveKind::allgather, "allgather", Traffic::gather, 1},
    {CollectiveKind::reducescatter, "reducescatter", Traffic::gather, 1},
    // A ReduceScatter and then an AllGather of the same V.
    {CollectiveKind::allreduce, "allreduce", Traffic::gather, 2},
    {CollectiveKind::alltoall, "alltoall", Traffic::exchange, 1},
    {CollectiveKind::sendrecv, "sendrecv", Traffic::point_to_point, 1},
};

constexpr CollectiveInfo const& collective_info(CollectiveKind kind) {
    return collective_table[static_cast<std::size_t>(kind)];
}

// The entry named `name`, or nullptr.
CollectiveInfo const* find_collective(std::string_view name);

// "allgather, reducescatter, allreduce, alltoall and sendrecv", for messages.
std::string collective_names();

}  // namespace roofline::model
