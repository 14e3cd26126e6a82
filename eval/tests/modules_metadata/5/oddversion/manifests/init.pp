class oddversion { notice('oddversion loaded') }
