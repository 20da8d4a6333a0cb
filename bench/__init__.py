"""`make bench`: the speed and memory figures of socialsite, each next to a baseline
measured in the same run (raw Redis, or the book's code), on a throwaway real Redis
server and, for HTTP and streaming, a real daphne process."""
