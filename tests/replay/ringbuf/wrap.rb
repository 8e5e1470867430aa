# options: --pages 1
# Records that straddle the end of a 4 KiB buffer, then a second lap.
write 40 100
dump
write 200 5
dump
write 1000 4
dump
