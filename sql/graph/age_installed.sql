-- Whether the Apache AGE extension is installed in this database.
SELECT EXISTS (SELECT FROM pg_extension WHERE extname = 'age')
