// Package capcmp reads capacity documents (report/result's
// CapacityDocument, schema vesload/capacity/v1) as `vesload compare`
// and `vesload trend` do run results: two sides' highest passing rates
// with the precision of each, a capacity gate in compare's grammar
// ("capacity>-10%"), and the capacity of a history of builds.
//
// A search's answer is an interval, [max_rps, fail_rps): the capacity
// lies in it. Two capacities differ only when their intervals do not
// overlap; a gate decided on a limit the generator hit says so and
// counts as undecided. It must not read run results: report/compare and
// report/trend own those.
package capcmp
