"""The Qt application. It shows and asks; it never computes a statistic itself."""
