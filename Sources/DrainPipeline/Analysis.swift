import DrainTrace
