package metamemory

import "github.com/zaxy/zaxy/internal/pgexec"

// ReadingFrom returns a Service with s's configuration that reads through db (a standby's
// pool). It keeps sketches of its own: a sketch is brought forward by what the projection added
// since its watermark, which only the server it was built from can say, so a standby's
// sketches are never mixed with the primary's or another standby's. Build it once per standby;
// each holds up to Limits.Spaces sketches.
func (s *Service) ReadingFrom(db pgexec.Executor) *Service {
	return &Service{db: db, cfg: s.cfg, cache: newCache(s.cfg.Limits.Spaces)}
}
