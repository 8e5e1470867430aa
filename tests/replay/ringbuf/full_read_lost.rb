# options: --pages 1
# A full writable buffer drops records until the reader makes room; the
# next record that fits carries the LOST record in front of it.
write 512 7
write 512 3
dump
read 2
dump
write 48
dump
read
write 16 3
dump
