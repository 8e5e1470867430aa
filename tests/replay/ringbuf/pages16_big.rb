# options: --pages 16
# The largest records in a 64 KiB buffer.
write 65528
dump
write 32768 2
dump
write 16 3
dump
