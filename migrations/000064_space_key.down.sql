ALTER TABLE spaces DROP COLUMN space_key;
