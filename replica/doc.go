// Package replica routes reads between the primary and its streaming standbys with
// read-your-writes: a Set holds the primary's pool and one pool per standby, measures each
// standby's replay position in a background loop, and picks, for each read, the pool to run it
// on (Set.Pick). A write's consistency token (Token) is the primary's WAL position after it
// committed; a read that carries it is served by a standby whose replay position has reached
// it, after a bounded wait for one, and otherwise by the primary. A Set without standbys always
// answers the primary and costs nothing.
package replica
