# options: --pages 1
# The consuming reader follows the writer around the buffer several times,
# reading records that wrap the end.
write 184 20
read 15
dump
write 184 20
read 10
dump
write 184 10
read
dump
write 3000
read 1
dump
