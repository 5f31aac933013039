import streamlit as st

st.title("Sample app")
st.markdown("Hello from **streamlit**")
