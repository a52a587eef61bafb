// Package release reads the files a deployment of Zaxy is built from (the Dockerfiles and
// compose.yaml at the repository's root) well enough for tests to check them where no container
// runtime is available: the shell of every RUN instruction, the user an image runs as, its
// health check, and the services compose starts. It never builds or runs an image.
package release
