// Package placement places spaces across several Postgres clusters (docs/scaling.md, "Spaces
// across clusters"): the clusters zaxy serve is configured with (ZAXY_CLUSTERS), the rule that
// places a new space (weighted rendezvous hashing), the directory on the home cluster that
// records where every space lives, and the move of a space from one cluster to another by its
// log. A space is the unit: its chain, its projections, its AGE graph and its River jobs live on
// its cluster and never need another space.
package placement
