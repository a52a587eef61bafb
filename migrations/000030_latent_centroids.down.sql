DROP VIEW IF EXISTS memory.latent_centroids;
DROP VIEW IF EXISTS latent_centroids;
