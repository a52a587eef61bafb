package api

// FanoutConns is the connections a fanout route counts as holding, for the external tests.
const FanoutConns = checkoutConns
