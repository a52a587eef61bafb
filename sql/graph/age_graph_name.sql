-- The AGE graph holding a space's mirror.
SELECT graph_name FROM age_graphs WHERE space_id = $1
