// Package topic builds each space's topic model, a latent semantic model: a truncated SVD of
// the space's own memory text (latent semantic indexing), so that texts about the same thing come out
// close even when they share no word ("photography setup" and "a flash for my Sony
// camera"). It needs no downloaded model: the space's own co-occurrence statistics are the
// model. The model is a projection (tables latent_models, latent_terms, latent_topics),
// rebuilt by the topic_space job as the space grows, and only steers ranking: what checkout
// returns is still the cited events themselves (docs/topic.md). Its tables keep the latent_ prefix of the technique's name;
// package latent is the derived-artifact layer (docs/latent.md), not this model.
package topic
