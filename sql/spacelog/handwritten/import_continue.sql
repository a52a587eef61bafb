-- Opens the import of space $1's events after seq $2 onto a copy ending there with hash $3
-- (ZX041 otherwise; migration 000056).
SELECT zaxy_import_continue($1, $2, $3)
