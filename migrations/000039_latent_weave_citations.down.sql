DROP TABLE IF EXISTS latent_weave_citations;
